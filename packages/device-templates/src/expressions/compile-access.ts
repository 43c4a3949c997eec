import type { CallExpression, Expression, Literal, MemberExpression, Node, Super } from 'acorn';
import { unwrap } from './parse-expression.js';
import { GLOBAL_FUNCTIONS, MATH_CONSTANTS, MATH_FUNCTIONS, type FunctionSpec } from './builtin-functions.js';
import { invokeMethod, METHODS } from './builtin-methods.js';
import { constant, fold, report, type Compiled, type CompilerState, type Evaluator } from './compiler-state.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import type { DatapointValue, EvaluationContext } from './expression-types.js';
import { compileRegex } from './safe-regex.js';
import { T, type StaticType } from './static-type.js';
import { suggestIdentifier } from './suggest-identifier.js';
import { FORBIDDEN_KEYS, readProperty, toKey, toStr } from './value-semantics.js';

/**
 * Member access and calls: `datapoint.<field>`, `datapoints.<id>.<field>`, `Math.*`, the
 * whitelisted functions and methods, `/re/.test(x)`, and reads of `length`, indexes and own
 * properties of data.
 */

const DATAPOINT_ID = /^[a-zA-Z0-9#&_-]{1,80}$/;

type FieldName = 'value' | 'rawValue' | 'quality' | 'timestamp';
const FIELD_TYPES: Readonly<Record<FieldName, StaticType>> = {
  value: T.ANY,
  rawValue: T.ANY,
  quality: T.ANY,
  timestamp: T.ANY,
};
const FIELDS: readonly FieldName[] = ['value', 'rawValue', 'quality', 'timestamp'];

function noDatapoint(): ExpressionEvaluationError {
  return new ExpressionEvaluationError('DT_ERR_EVAL_CONTEXT', 'the evaluation context has no datapoint');
}

// One module-level reader per field: every rule shares it, so its call sites stay monomorphic.
const READ_OWN: Readonly<Record<FieldName, Evaluator>> = {
  value: (c) => {
    const d = c?.datapoint;
    if (typeof d !== 'object' || d === null) throw noDatapoint();
    return d.value;
  },
  rawValue: (c) => {
    const d = c?.datapoint;
    if (typeof d !== 'object' || d === null) throw noDatapoint();
    return d.rawValue;
  },
  quality: (c) => {
    const d = c?.datapoint;
    if (typeof d !== 'object' || d === null) throw noDatapoint();
    return d.quality;
  },
  timestamp: (c) => {
    const d = c?.datapoint;
    if (typeof d !== 'object' || d === null) throw noDatapoint();
    return d.timestamp;
  },
};

function otherDatapoint(context: EvaluationContext, id: string): DatapointValue {
  const all = context?.datapoints;
  const d: unknown = typeof all === 'object' && all !== null && Object.hasOwn(all, id) ? all[id] : undefined;
  if (typeof d !== 'object' || d === null) {
    throw new ExpressionEvaluationError(
      'DT_ERR_EVAL_DATAPOINT_MISSING',
      `datapoint '${id}' has no value in this evaluation`,
    );
  }
  return d as DatapointValue;
}

/** The static name of `x.name` / `x['name']` / `x[0]`, or undefined for a computed key. */
function staticKey(node: MemberExpression): string | number | undefined {
  const property = node.property;
  if (!node.computed) return property.type === 'Identifier' ? property.name : undefined;
  if (property.type === 'Literal' && (typeof property.value === 'string' || typeof property.value === 'number'))
    return toKey(property.value);
  return undefined;
}

function fieldOf(state: CompilerState, node: MemberExpression, subject: string): FieldName | undefined {
  const key = staticKey(node);
  const field = FIELDS.find((f) => f === key);
  if (field !== undefined) return field;
  const name = typeof key === 'string' ? key : undefined;
  const suggestion = name === undefined ? undefined : suggestIdentifier(name, FIELDS);
  report(
    state,
    'DT_ERR_EXPR_DATAPOINT_FIELD',
    `${subject} has no field ${name === undefined ? 'computed this way' : `'${name}'`}; its fields are value, ` +
      `rawValue, quality and timestamp` +
      (suggestion !== undefined ? ` (did you mean '${suggestion}'?)` : ''),
    node.property,
    { ...(name !== undefined ? { name } : {}), ...(suggestion !== undefined ? { suggestion } : {}) },
  );
  return undefined;
}

/** `datapoints.<id>` / `datapoints['<id>']`: the id, checked, or undefined after reporting. */
function datapointIdOf(state: CompilerState, node: MemberExpression): string | undefined {
  const property = node.property;
  let id: string | undefined;
  if (!node.computed && property.type === 'Identifier') id = property.name;
  else if (node.computed && property.type === 'Literal' && typeof property.value === 'string') id = property.value;
  if (id === undefined || !DATAPOINT_ID.test(id)) {
    report(
      state,
      'DT_ERR_EXPR_DATAPOINT_ID_INVALID',
      "name the datapoint with its datapointId (letters, digits, # & _ -): datapoints.temp or datapoints['if#1']",
      property,
    );
    return undefined;
  }
  const known = state.datapointIds;
  if (known !== undefined && !known.includes(id)) {
    const suggestion = suggestIdentifier(id, known);
    const hint =
      suggestion !== undefined
        ? `; did you mean '${suggestion}'?`
        : known.length > 0 && known.length <= 12
          ? `; known: ${known.join(', ')}`
          : '';
    report(state, 'DT_ERR_EXPR_DATAPOINT_UNKNOWN', `there is no datapoint '${id}' to read here${hint}`, property, {
      name: id,
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
    return undefined;
  }
  if (!state.referencedDatapoints.includes(id)) state.referencedDatapoints.push(id);
  return id;
}

const isIdentifier = (node: Expression | Super, name: string) => node.type === 'Identifier' && node.name === name;

/** Compiles `object.property` / `object[property]`. */
export function compileMember(state: CompilerState, node: MemberExpression): Compiled {
  if (node.object.type === 'Super' || node.property.type === 'PrivateIdentifier') {
    return report(state, 'DT_ERR_EXPR_UNSUPPORTED', 'super and private names are not available in expressions', node);
  }
  const object = unwrap(node.object);
  if (isIdentifier(object, 'datapoint')) {
    const field = fieldOf(state, node, 'datapoint');
    if (field === undefined) return { run: () => undefined, type: T.ANY };
    if (field === 'rawValue') state.usesRawValue = true;
    return { run: READ_OWN[field], type: FIELD_TYPES[field] };
  }
  if (object.type === 'MemberExpression' && isIdentifier(unwrap(object.object), 'datapoints')) {
    const id = datapointIdOf(state, object);
    const field = fieldOf(state, node, `datapoints.${id ?? '<id>'}`);
    if (id === undefined || field === undefined) return { run: () => undefined, type: T.ANY };
    return { run: (c) => otherDatapoint(c, id)[field], type: FIELD_TYPES[field] };
  }
  if (isIdentifier(object, 'datapoints')) {
    datapointIdOf(state, node);
    return report(
      state,
      'DT_ERR_EXPR_DATAPOINT_FIELD',
      'read a field of the datapoint: datapoints.<id>.value (or .rawValue, .quality, .timestamp)',
      node,
    );
  }
  const key = staticKey(node);
  if (isIdentifier(object, 'Math')) {
    if (typeof key === 'string' && MATH_CONSTANTS.has(key)) return constant(MATH_CONSTANTS.get(key));
    const message =
      typeof key === 'string' && MATH_FUNCTIONS.has(key)
        ? `Math.${key} is a function; call it: Math.${key}(x)`
        : `Math has no constant ${String(key ?? '')}`;
    return report(state, 'DT_ERR_EXPR_UNSUPPORTED', message, node.property);
  }
  if (typeof key === 'string' && FORBIDDEN_KEYS.has(key)) {
    return report(state, 'DT_ERR_EXPR_MEMBER_FORBIDDEN', `reading '${key}' is not allowed`, node.property, {
      name: key,
    });
  }
  const target = state.compile(object);
  const o = target.run;
  const type = key === 'length' ? T.NUMBER | T.UNDEFINED : T.ANY;
  if (key !== undefined) return fold(state, node, { run: (c) => readProperty(o(c), key), type }, [target]);
  const keyPart = state.compile(node.property);
  const k = keyPart.run;
  return fold(state, node, { run: (c) => readProperty(o(c), toKey(k(c))), type }, [target, keyPart]);
}

function arityProblem(state: CompilerState, node: CallExpression, name: string, min: number, max: number): boolean {
  const count = node.arguments.length;
  if (count >= min && count <= max) return false;
  const expected = min === max ? `${min}` : max >= 50 ? `at least ${min}` : `${min} to ${max}`;
  report(
    state,
    'DT_ERR_EXPR_ARITY',
    `${name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${count}`,
    node,
    { name },
  );
  return true;
}

function callFunction(spec: FunctionSpec, args: readonly Evaluator[]): Evaluator {
  const fn = spec.fn;
  switch (args.length) {
    case 0:
      return () => fn();
    case 1: {
      const a = args[0]!;
      return (c) => fn(a(c));
    }
    case 2: {
      const a = args[0]!;
      const b = args[1]!;
      return (c) => fn(a(c), b(c));
    }
    default:
      return (c) => fn(...args.map((a) => a(c)));
  }
}

const NO_ARGUMENT: Evaluator = () => undefined;

/** The call's arguments, compiled (a spread was refused before). */
function compileArguments(state: CompilerState, node: CallExpression): Compiled[] {
  return node.arguments.map((argument) => state.compile(argument));
}

/** A call of a whitelisted function (`label` names it in messages): arity checked, arguments compiled. */
function compileSpecCall(state: CompilerState, node: CallExpression, spec: FunctionSpec, label: string): Compiled {
  if (arityProblem(state, node, label, spec.min, spec.max)) return { run: NO_ARGUMENT, type: spec.type };
  const args = compileArguments(state, node);
  return fold(
    state,
    node,
    {
      run: callFunction(
        spec,
        args.map((a) => a.run),
      ),
      type: spec.type,
    },
    args,
  );
}

/** Compiles a call: a whitelisted function, `Math.*`, a whitelisted method or `/re/.test(x)`. */
export function compileCall(state: CompilerState, node: CallExpression): Compiled {
  const callee = unwrap(node.callee);
  if (node.optional) return report(state, 'DT_ERR_EXPR_UNSUPPORTED', 'optional calls (?.()) are not supported', node);
  const spread = node.arguments.find((argument) => argument.type === 'SpreadElement');
  if (spread !== undefined) return report(state, 'DT_ERR_EXPR_UNSUPPORTED', 'spread (...) is not supported', spread);

  if (callee.type === 'Identifier') {
    const spec = GLOBAL_FUNCTIONS.get(callee.name);
    if (spec === undefined) return unknownCall(state, callee, callee.name, [...GLOBAL_FUNCTIONS.keys()]);
    return compileSpecCall(state, node, spec, callee.name);
  }
  if (callee.type !== 'MemberExpression' || callee.object.type === 'Super') {
    if (callee.type !== 'MemberExpression') state.compile(callee);
    return report(
      state,
      'DT_ERR_EXPR_CALL_UNSUPPORTED',
      'only the whitelisted functions and methods can be called',
      callee,
    );
  }
  const object = unwrap(callee.object);
  if (callee.computed || callee.property.type !== 'Identifier') {
    state.compile(object);
    return report(
      state,
      'DT_ERR_EXPR_CALL_UNSUPPORTED',
      'call methods with a dot and their name: x.trim()',
      callee.property,
    );
  }
  const name = callee.property.name;
  if (isIdentifier(object, 'Math')) {
    const spec = MATH_FUNCTIONS.get(name);
    if (spec === undefined) {
      if (name === 'random')
        return report(
          state,
          'DT_ERR_EXPR_CALL_UNSUPPORTED',
          'Math.random is not available: an expression gives one result per input',
          callee.property,
          { name },
        );
      return unknownCall(state, callee.property, name, [...MATH_FUNCTIONS.keys()], 'Math.');
    }
    return compileSpecCall(state, node, spec, `Math.${name}`);
  }
  if (object.type === 'Literal' && object.regex !== undefined) return compileRegexTest(state, node, object, name);

  const spec = METHODS.get(name);
  const receiver = state.compile(object);
  if (spec === undefined) {
    if (FORBIDDEN_KEYS.has(name))
      return report(state, 'DT_ERR_EXPR_MEMBER_FORBIDDEN', `reading '${name}' is not allowed`, callee.property, {
        name,
      });
    return unknownCall(state, callee.property, name, [...METHODS.keys()], '.');
  }
  if (arityProblem(state, node, name, spec.min, spec.max)) return { run: NO_ARGUMENT, type: spec.type };
  const args = compileArguments(state, node);
  const r = receiver.run;
  const a = args[0]?.run ?? NO_ARGUMENT;
  const b = args[1]?.run ?? NO_ARGUMENT;
  return fold(state, node, { run: (c) => invokeMethod(name, spec, r(c), a(c), b(c)), type: spec.type }, [
    receiver,
    ...args,
  ]);
}

function unknownCall(
  state: CompilerState,
  at: Node,
  name: string,
  candidates: readonly string[],
  prefix = '',
): Compiled {
  const suggestion = suggestIdentifier(name, candidates);
  const what =
    prefix === '.'
      ? `.${name}() is not a method expressions can call`
      : `${prefix}${name}() is not a function expressions can call`;
  return report(
    state,
    'DT_ERR_EXPR_CALL_UNSUPPORTED',
    what +
      (suggestion !== undefined
        ? `; did you mean ${prefix === '.' ? '.' : prefix}${suggestion}()?`
        : '; see the list in docs/expressions.md'),
    at,
    {
      name,
      ...(suggestion !== undefined ? { suggestion } : {}),
    },
  );
}

function compileRegexTest(state: CompilerState, node: CallExpression, literal: Literal, method: string): Compiled {
  if (method !== 'test') {
    return report(
      state,
      'DT_ERR_EXPR_CALL_UNSUPPORTED',
      `a regular expression offers only test(): /pattern/.test(value)`,
      (node.callee as MemberExpression).property,
      { name: method },
    );
  }
  if (arityProblem(state, node, 'test', 1, 1)) return { run: NO_ARGUMENT, type: T.BOOLEAN };
  const { pattern, flags } = literal.regex!;
  const compiledRegex = compileRegex(pattern, flags);
  const argument = state.compile(node.arguments[0] as Expression);
  if (!compiledRegex.ok) {
    for (const issue of compiledRegex.issues) {
      const start = literal.start + 1 + issue.offset;
      report(state, issue.code, issue.message, { start, end: start + issue.length });
    }
    return { run: NO_ARGUMENT, type: T.BOOLEAN };
  }
  const regex = compiledRegex.regex;
  const x = argument.run;
  const run: Evaluator = (c) => {
    const v = x(c);
    return regex.test(typeof v === 'string' ? v : toStr(v));
  };
  return fold(state, node, { run, type: T.BOOLEAN }, [argument]);
}
