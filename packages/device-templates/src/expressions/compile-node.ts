import type {
  ArrayExpression,
  ConditionalExpression,
  Expression,
  Identifier,
  Literal,
  LogicalExpression,
  Node,
  TemplateLiteral,
  UnaryExpression,
} from 'acorn';
import { binaryEvaluator, binaryType, BINARY_OPERATORS } from './binary-operators.js';
import { GLOBAL_FUNCTIONS, GLOBAL_VALUES } from './builtin-functions.js';
import { compileCall, compileMember } from './compile-access.js';
import { constant, fold, report, type Compiled, type CompilerState, type Evaluator } from './compiler-state.js';
import { falsyPart, T, truthyPart } from './static-type.js';
import { suggestIdentifier } from './suggest-identifier.js';
import { concat, toNum, toStr, typeOf } from './value-semantics.js';

/** The names an expression of kind `value` or `boolean` can start from. */
export const ROOT_NAMES: readonly string[] = [
  'datapoint',
  'datapoints',
  'Math',
  ...GLOBAL_FUNCTIONS.keys(),
  ...GLOBAL_VALUES.keys(),
];

/** Why each syntax outside the language is refused, in the template author's terms. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  AssignmentExpression: 'assignment is not allowed: an expression cannot change values (to compare, use === or ==)',
  UpdateExpression: '++ and -- change values and are not allowed',
  ThisExpression: 'this is not available in expressions; read the datapoint with datapoint.value',
  NewExpression: 'new is not allowed; convert with String(x), Number(x) or Boolean(x)',
  ArrowFunctionExpression: 'functions cannot be defined in an expression',
  FunctionExpression: 'functions cannot be defined in an expression',
  ClassExpression: 'classes cannot be defined in an expression',
  SequenceExpression: 'the comma operator is not allowed; write one expression',
  ObjectExpression: 'object literals are not supported',
  TaggedTemplateExpression: 'tagged templates are not supported; use a plain `...${x}...` template',
  ChainExpression: 'optional chaining (?.) is not supported; test for null first: x != null && x.y',
  AwaitExpression: 'await is not available in expressions',
  YieldExpression: 'yield is not available in expressions',
  ImportExpression: 'import is not available in expressions',
  MetaProperty: 'import.meta and new.target are not available in expressions',
  Super: 'super is not available in expressions',
};

/** Compiles any node of a `value` / `boolean` expression; issues go to `state`. */
export function compileNode(state: CompilerState, node: Node): Compiled {
  const expression = node as Expression;
  switch (expression.type) {
    case 'ParenthesizedExpression':
      return state.compile(expression.expression);
    case 'Literal':
      return compileLiteral(state, expression);
    case 'Identifier':
      return compileIdentifier(state, expression);
    case 'UnaryExpression':
      return compileUnary(state, expression);
    case 'BinaryExpression': {
      if (!BINARY_OPERATORS.has(expression.operator) || expression.left.type === 'PrivateIdentifier') {
        return report(
          state,
          'DT_ERR_EXPR_UNSUPPORTED',
          `the ${expression.operator} operator is not supported`,
          operatorRange(state, expression.left, expression.right),
        );
      }
      const left = state.compile(expression.left);
      const right = state.compile(expression.right);
      const compiled = {
        run: binaryEvaluator(expression.operator, left, right),
        type: binaryType(expression.operator, left.type, right.type),
      };
      return fold(state, expression, compiled, [left, right]);
    }
    case 'LogicalExpression':
      return compileLogical(state, expression);
    case 'ConditionalExpression':
      return compileConditional(state, expression);
    case 'TemplateLiteral':
      return compileTemplate(state, expression);
    case 'ArrayExpression':
      return compileArray(state, expression);
    case 'MemberExpression':
      return compileMember(state, expression);
    case 'CallExpression':
      return compileCall(state, expression);
    // Listed one by one so that a node type a new acorn adds has to be decided here.
    case 'ArrowFunctionExpression':
    case 'AssignmentExpression':
    case 'AwaitExpression':
    case 'ChainExpression':
    case 'ClassExpression':
    case 'FunctionExpression':
    case 'ImportExpression':
    case 'MetaProperty':
    case 'NewExpression':
    case 'ObjectExpression':
    case 'SequenceExpression':
    case 'TaggedTemplateExpression':
    case 'ThisExpression':
    case 'UpdateExpression':
    case 'YieldExpression':
      return report(
        state,
        'DT_ERR_EXPR_UNSUPPORTED',
        UNSUPPORTED[expression.type] ?? `${expression.type} is not supported in expressions`,
        expression,
      );
  }
}

/** The range of the operator between two operands (for messages about the operator itself). */
export function operatorRange(state: CompilerState, left: Node, right: Node): { start: number; end: number } {
  const between = state.source.slice(left.end, right.start);
  const lead = between.length - between.trimStart().length;
  const trail = between.length - between.trimEnd().length;
  return { start: left.end + lead, end: Math.max(left.end + lead, right.start - trail) };
}

function compileLiteral(state: CompilerState, node: Literal): Compiled {
  if (node.regex !== undefined) {
    return report(
      state,
      'DT_ERR_EXPR_REGEX_POSITION',
      'a regular expression can only be used to test a value: /pattern/.test(value)',
      node,
    );
  }
  if (node.bigint !== undefined)
    return report(state, 'DT_ERR_EXPR_UNSUPPORTED', 'BigInt literals are not supported; write a plain number', node);
  return constant(node.value);
}

function compileIdentifier(state: CompilerState, node: Identifier): Compiled {
  const name = node.name;
  if (GLOBAL_VALUES.has(name)) return constant(GLOBAL_VALUES.get(name));
  if (name === 'datapoint') {
    return report(
      state,
      'DT_ERR_EXPR_DATAPOINT_FIELD',
      'datapoint is read through a field: datapoint.value, datapoint.rawValue, datapoint.quality or ' +
        'datapoint.timestamp',
      node,
      { name },
    );
  }
  if (name === 'datapoints') {
    return report(
      state,
      'DT_ERR_EXPR_DATAPOINT_FIELD',
      "another datapoint is read as datapoints.<id>.value (or datapoints['<id>'].value)",
      node,
      { name },
    );
  }
  if (name === 'Math')
    return report(
      state,
      'DT_ERR_EXPR_UNSUPPORTED',
      'Math is used through its functions and constants: Math.abs(x), Math.PI',
      node,
      { name },
    );
  if (GLOBAL_FUNCTIONS.has(name))
    return report(state, 'DT_ERR_EXPR_UNSUPPORTED', `${name} is a function; call it: ${name}(x)`, node, { name });
  const suggestion = suggestIdentifier(name, ROOT_NAMES);
  return report(
    state,
    'DT_ERR_EXPR_IDENTIFIER_UNKNOWN',
    `'${name}' is not defined` +
      (suggestion !== undefined
        ? `; did you mean '${suggestion}'?`
        : `; an expression starts from datapoint, datapoints, Math or a function such as Number(...)`),
    node,
    { name, ...(suggestion !== undefined ? { suggestion } : {}) },
  );
}

function compileUnary(state: CompilerState, node: UnaryExpression): Compiled {
  const operator = node.operator;
  if (operator === 'delete' || operator === 'void') {
    return report(state, 'DT_ERR_EXPR_UNSUPPORTED', `the ${operator} operator is not supported`, {
      start: node.start,
      end: node.start + operator.length,
    });
  }
  const argument = state.compile(node.argument);
  const a = argument.run;
  let compiled: Compiled;
  switch (operator) {
    case '!':
      compiled = { run: (c) => !a(c), type: T.BOOLEAN };
      break;
    case '-':
      compiled = { run: (c) => -toNum(a(c)), type: T.NUMBER };
      break;
    case '+':
      compiled = { run: (c) => toNum(a(c)), type: T.NUMBER };
      break;
    case '~':
      compiled = { run: (c) => ~toNum(a(c)), type: T.NUMBER };
      break;
    case 'typeof':
      compiled = { run: (c) => typeOf(a(c)), type: T.STRING };
  }
  return fold(state, node, compiled, [argument]);
}

function compileLogical(state: CompilerState, node: LogicalExpression): Compiled {
  const left = state.compile(node.left);
  const right = state.compile(node.right);
  const l = left.run;
  const r = right.run;
  let compiled: Compiled;
  switch (node.operator) {
    case '&&':
      compiled = { run: (c) => l(c) && r(c), type: falsyPart(left.type) | right.type };
      break;
    case '||':
      compiled = { run: (c) => l(c) || r(c), type: truthyPart(left.type) | right.type };
      break;
    case '??':
      compiled = { run: (c) => l(c) ?? r(c), type: truthyPart(left.type) | right.type };
  }
  return fold(state, node, compiled, [left, right]);
}

function compileConditional(state: CompilerState, node: ConditionalExpression): Compiled {
  const test = state.compile(node.test);
  const consequent = state.compile(node.consequent);
  const alternate = state.compile(node.alternate);
  const t = test.run;
  const y = consequent.run;
  const n = alternate.run;
  const compiled = {
    run: (c: Parameters<Evaluator>[0]) => (t(c) ? y(c) : n(c)),
    type: consequent.type | alternate.type,
  };
  return fold(state, node, compiled, [test, consequent, alternate]);
}

function compileTemplate(state: CompilerState, node: TemplateLiteral): Compiled {
  const texts = node.quasis.map((quasi) => quasi.value.cooked ?? '');
  const parts = node.expressions.map((expression) => state.compile(expression));
  const runs = parts.map((part) => part.run);
  const run: Evaluator = (c) => {
    let out = texts[0]!;
    for (let i = 0; i < runs.length; i++) out = concat(concat(out, toStr(runs[i]!(c))), texts[i + 1]!);
    return out;
  };
  return fold(state, node, { run, type: T.STRING }, parts);
}

function compileArray(state: CompilerState, node: ArrayExpression): Compiled {
  const elements: Compiled[] = [];
  for (const element of node.elements) {
    if (element === null)
      return report(state, 'DT_ERR_EXPR_UNSUPPORTED', 'arrays with empty slots are not supported', node);
    if (element.type === 'SpreadElement')
      return report(state, 'DT_ERR_EXPR_UNSUPPORTED', 'spread (...) is not supported', element);
    elements.push(state.compile(element));
  }
  const runs = elements.map((element) => element.run);
  return fold(state, node, { run: (c) => runs.map((run) => run(c)), type: T.OBJECT }, elements);
}
