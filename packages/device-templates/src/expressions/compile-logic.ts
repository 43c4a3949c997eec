import type { Expression, Node } from 'acorn';
import { operatorRange } from './compile-node.js';
import { constant, FAILED, report, type Compiled, type CompilerState, type Evaluator } from './compiler-state.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import type { CompileResult, EvaluationContext } from './expression-types.js';
import { finish, NO_REFERENCES } from './finish-compile.js';
import { parseExpression } from './parse-expression.js';
import { T } from './static-type.js';
import { suggestIdentifier } from './suggest-identifier.js';

/**
 * The `logic` of an evaluation: a boolean combination of the symbols its expressions declare,
 * with `!`, `&&`, `||`, `&`, `|` (the last two evaluate both sides and yield booleans),
 * parentheses, `true` and `false`. Symbols that are not JavaScript identifiers (`link-down`)
 * are accepted where they stand alone.
 */
export function compileLogic(source: string, symbols: readonly string[]): CompileResult {
  const { text, placeholders } = substituteSymbols(source, symbols);
  const parsed = parseExpression(text);
  if (!parsed.ok) return finish(source, 'logic', () => undefined, NO_REFERENCES, [parsed.issue]);
  const used: string[] = [];
  const state: CompilerState = {
    source,
    datapointIds: undefined,
    issues: [],
    referencedDatapoints: [],
    usesRawValue: false,
    compile: (node: Node): Compiled => compileLogicNode(state, node as Expression, symbols, placeholders, used),
  };
  const root = state.compile(parsed.node);
  for (const symbol of new Set(symbols)) {
    if (used.includes(symbol)) continue;
    report(
      state,
      'DT_WARN_EXPR_SYMBOL_UNUSED',
      `the symbol '${symbol}' is declared but not used in logic, so its expression never affects the result`,
      { start: 0, end: 0 },
      { name: symbol },
    );
  }
  if (root.constant !== undefined && root !== FAILED) {
    report(
      state,
      'DT_WARN_EXPR_CONSTANT_RESULT',
      `this logic is always ${String(root.constant.value)}, whatever the expressions yield`,
      parsed.node,
    );
  }
  return finish(source, 'logic', root.run, { datapoints: [], symbols: used, usesRawValue: false }, state.issues);
}

const ALLOWED = '!, &&, ||, &, |, parentheses, true and false';

function compileLogicNode(
  state: CompilerState,
  node: Expression,
  declared: readonly string[],
  placeholders: ReadonlyMap<string, string>,
  used: string[],
): Compiled {
  switch (node.type) {
    case 'ParenthesizedExpression':
      return state.compile(node.expression);
    case 'Identifier': {
      const name = placeholders.get(node.name) ?? node.name;
      if (!declared.includes(name)) {
        const suggestion = suggestIdentifier(name, declared);
        const list = declared.length > 0 ? `declared: ${declared.join(', ')}` : 'the evaluation declares no symbols';
        return report(
          state,
          'DT_ERR_EXPR_SYMBOL_UNDECLARED',
          `symbol ${name} is not declared; ${list}` +
            (suggestion !== undefined ? ` (did you mean ${suggestion}?)` : ''),
          node,
          {
            name,
            ...(suggestion !== undefined ? { suggestion } : {}),
          },
        );
      }
      if (!used.includes(name)) used.push(name);
      return { run: symbolReader(name), type: T.BOOLEAN };
    }
    case 'Literal':
      if (typeof node.value === 'boolean') return constant(node.value);
      break;
    case 'UnaryExpression':
      if (node.operator === '!') {
        const a = state.compile(node.argument).run;
        return { run: (c) => !a(c), type: T.BOOLEAN };
      }
      break;
    case 'LogicalExpression':
    case 'BinaryExpression': {
      const op = node.operator;
      if (op !== '&&' && op !== '||' && op !== '&' && op !== '|') {
        return report(
          state,
          'DT_ERR_EXPR_LOGIC_UNSUPPORTED',
          `logic combines symbols with ${ALLOWED}; '${op}' is not one of them`,
          operatorRange(state, node.left, node.right),
        );
      }
      return combine(op, state.compile(node.left), state.compile(node.right));
    }
    // Not logic: reported below. Listed so that a node type a new acorn adds has to be decided here.
    case 'ArrayExpression':
    case 'ArrowFunctionExpression':
    case 'AssignmentExpression':
    case 'AwaitExpression':
    case 'CallExpression':
    case 'ChainExpression':
    case 'ClassExpression':
    case 'ConditionalExpression':
    case 'FunctionExpression':
    case 'ImportExpression':
    case 'MemberExpression':
    case 'MetaProperty':
    case 'NewExpression':
    case 'ObjectExpression':
    case 'SequenceExpression':
    case 'TaggedTemplateExpression':
    case 'TemplateLiteral':
    case 'ThisExpression':
    case 'UpdateExpression':
    case 'YieldExpression':
      break;
  }
  return report(
    state,
    'DT_ERR_EXPR_LOGIC_UNSUPPORTED',
    `logic combines symbols with ${ALLOWED}; '${state.source.slice(node.start, node.end)}' is not one of them`,
    node,
  );
}

function combine(op: '&&' | '||' | '&' | '|', left: Compiled, right: Compiled): Compiled {
  if (left.constant !== undefined && right.constant !== undefined) {
    const a = left.constant.value as boolean;
    const b = right.constant.value as boolean;
    return constant(op === '&&' || op === '&' ? a && b : a || b);
  }
  const l = left.run;
  const r = right.run;
  switch (op) {
    case '&&':
      return { run: (c) => l(c) && r(c), type: T.BOOLEAN };
    case '||':
      return { run: (c) => l(c) || r(c), type: T.BOOLEAN };
    case '&':
      return {
        run: (c) => {
          const a = l(c);
          const b = r(c);
          return a && b;
        },
        type: T.BOOLEAN,
      };
    case '|':
      return {
        run: (c) => {
          const a = l(c);
          const b = r(c);
          return a || b;
        },
        type: T.BOOLEAN,
      };
  }
}

function symbolReader(name: string): Evaluator {
  return (context: EvaluationContext) => {
    const symbols = context?.symbols;
    const value: unknown = typeof symbols === 'object' && symbols !== null ? symbols[name] : undefined;
    if (typeof value !== 'boolean') {
      throw new ExpressionEvaluationError(
        'DT_ERR_EVAL_SYMBOL_MISSING',
        `symbol ${name} has no boolean value in this evaluation`,
      );
    }
    return value;
  };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const ID_CHAR = /[\w$]/;
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends finally for function ' +
    'if ' +
    'import in instanceof new null return super switch this throw try typeof var void while with yield let static ' +
    'await implements package protected interface private public undefined NaN Infinity'
  ).split(' '),
);
const PLACEHOLDER_HEADS = 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ';

/**
 * Replaces each occurrence of a declared symbol that is not a plain identifier (`link-down`,
 * `if`) by a placeholder identifier of the same length, so that acorn can parse the logic and
 * offsets stay those of `source`. Longer symbols are replaced first.
 */
export function substituteSymbols(
  source: string,
  symbols: readonly string[],
): { text: string; placeholders: Map<string, string> } {
  const placeholders = new Map<string, string>();
  const special = [...new Set(symbols)]
    .filter((s) => s.length > 0 && (!IDENTIFIER.test(s) || RESERVED.has(s)))
    .sort((a, b) => b.length - a.length);
  let text = source;
  let counter = 0;
  for (const symbol of special) {
    let placeholder: string | undefined;
    for (; placeholder === undefined && counter < 10_000; counter++) {
      const head = PLACEHOLDER_HEADS[counter % PLACEHOLDER_HEADS.length]!;
      const tail =
        symbol.length === 1
          ? ''
          : String(Math.floor(counter / PLACEHOLDER_HEADS.length)).padStart(symbol.length - 1, '0');
      const candidate = head + tail;
      if (candidate.length === symbol.length && !text.includes(candidate) && !symbols.includes(candidate))
        placeholder = candidate;
      if (symbol.length === 1 && counter >= PLACEHOLDER_HEADS.length) break;
    }
    if (placeholder === undefined) continue;
    for (let at = text.indexOf(symbol); at >= 0; at = text.indexOf(symbol, at + symbol.length)) {
      if (ID_CHAR.test(text[at - 1] ?? '') || ID_CHAR.test(text[at + symbol.length] ?? '')) continue;
      text = text.slice(0, at) + placeholder + text.slice(at + symbol.length);
      placeholders.set(placeholder, symbol);
    }
  }
  return { text, placeholders };
}
