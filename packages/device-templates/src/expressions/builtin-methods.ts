import { checkRange, MAX_ARRAY, MAX_STRING } from './builtin-functions.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import { T, type StaticType } from './static-type.js';
import { capString, describeType, joinArray, optNum, tooLong, toNum, toStr } from './value-semantics.js';

/**
 * The methods an expression may call, per receiver type. A method called on a receiver type it
 * lacks is `DT_ERR_EVAL_METHOD_RECEIVER`. Arguments are converted like JavaScript does (with the
 * data-safe conversions); an omitted argument is `undefined`, as in JavaScript. Nothing mutates
 * its receiver, and every method that can build a string longer than its input checks the limit.
 */
export interface MethodSpec {
  readonly min: number;
  readonly max: number;
  readonly type: StaticType;
  readonly string?: (s: string, a: unknown, b: unknown) => unknown;
  readonly array?: (array: readonly unknown[], a: unknown, b: unknown) => unknown;
  readonly number?: (n: number, a: unknown, b: unknown) => unknown;
  readonly boolean?: (v: boolean) => unknown;
}

/** `search` in `s` replaced by `replacement` (literally: `$` has no special meaning), once or everywhere. */
export function replaceText(s: string, search: string, replacement: string, all: boolean): string {
  let index = s.indexOf(search);
  if (index < 0) return s;
  let out = '';
  let last = 0;
  while (index >= 0) {
    out += s.slice(last, index) + replacement;
    if (out.length > MAX_STRING) throw tooLong('the replacement');
    last = index + search.length;
    if (!all) break;
    index = search.length === 0 ? (index < s.length ? index + 1 : -1) : s.indexOf(search, last);
  }
  return capString(out + s.slice(last), 'the replacement');
}

function pad(s: string, length: unknown, fill: unknown, atStart: boolean): string {
  const target = toNum(length);
  if (target > MAX_STRING) throw tooLong('the padded string');
  const filler = fill === undefined ? undefined : toStr(fill);
  return atStart ? s.padStart(target, filler) : s.padEnd(target, filler);
}

function split(s: string, separator: unknown, limit: unknown): string[] {
  if (separator === undefined) return [s];
  const max = limit === undefined ? MAX_ARRAY + 1 : Math.min(toNum(limit) >>> 0, MAX_ARRAY + 1);
  const parts = s.split(toStr(separator), max);
  if (parts.length > MAX_ARRAY) {
    throw new ExpressionEvaluationError(
      'DT_ERR_EVAL_STRING_TOO_LONG',
      `split() would make more than ${MAX_ARRAY} parts`,
    );
  }
  return parts;
}

function repeat(s: string, count: unknown): string {
  const n = toNum(count);
  if (n < 0 || n === Infinity)
    throw new ExpressionEvaluationError('DT_ERR_EVAL_RANGE', `repeat() count must be 0 or more and finite, got ${n}`);
  if (s.length * Math.trunc(n || 0) > MAX_STRING) throw tooLong('the repeated string');
  return s.repeat(n);
}

const text = (s: unknown) => toStr(s);

const METHOD_LIST: readonly [string, MethodSpec][] = [
  [
    'includes',
    {
      min: 1,
      max: 2,
      type: T.BOOLEAN,
      string: (s, a, b) => s.includes(text(a), optNum(b)),
      array: (x, a, b) => x.includes(a, optNum(b)),
    },
  ],
  ['startsWith', { min: 1, max: 2, type: T.BOOLEAN, string: (s, a, b) => s.startsWith(text(a), optNum(b)) }],
  ['endsWith', { min: 1, max: 2, type: T.BOOLEAN, string: (s, a, b) => s.endsWith(text(a), optNum(b)) }],
  [
    'indexOf',
    {
      min: 1,
      max: 2,
      type: T.NUMBER,
      string: (s, a, b) => s.indexOf(text(a), optNum(b)),
      array: (x, a, b) => x.indexOf(a, optNum(b)),
    },
  ],
  [
    'lastIndexOf',
    {
      min: 1,
      max: 2,
      type: T.NUMBER,
      string: (s, a, b) => s.lastIndexOf(text(a), optNum(b)),
      array: (x, a, b) => (b === undefined ? x.lastIndexOf(a) : x.lastIndexOf(a, toNum(b))),
    },
  ],
  ['toLowerCase', { min: 0, max: 0, type: T.STRING, string: (s) => capString(s.toLowerCase(), 'the lower-case text') }],
  ['toUpperCase', { min: 0, max: 0, type: T.STRING, string: (s) => capString(s.toUpperCase(), 'the upper-case text') }],
  ['trim', { min: 0, max: 0, type: T.STRING, string: (s) => s.trim() }],
  ['trimStart', { min: 0, max: 0, type: T.STRING, string: (s) => s.trimStart() }],
  ['trimEnd', { min: 0, max: 0, type: T.STRING, string: (s) => s.trimEnd() }],
  [
    'slice',
    {
      min: 0,
      max: 2,
      type: T.STRING | T.OBJECT,
      string: (s, a, b) => s.slice(optNum(a), optNum(b)),
      array: (x, a, b) => x.slice(optNum(a), optNum(b)),
    },
  ],
  ['substring', { min: 1, max: 2, type: T.STRING, string: (s, a, b) => s.substring(toNum(a), optNum(b)) }],
  ['charAt', { min: 0, max: 1, type: T.STRING, string: (s, a) => s.charAt(optNum(a) ?? 0) }],
  ['charCodeAt', { min: 0, max: 1, type: T.NUMBER, string: (s, a) => s.charCodeAt(optNum(a) ?? 0) }],
  ['at', { min: 1, max: 1, type: T.ANY, string: (s, a) => s.at(toNum(a)), array: (x, a) => x.at(toNum(a)) }],
  ['split', { min: 0, max: 2, type: T.OBJECT, string: split }],
  ['replace', { min: 2, max: 2, type: T.STRING, string: (s, a, b) => replaceText(s, text(a), text(b), false) }],
  ['replaceAll', { min: 2, max: 2, type: T.STRING, string: (s, a, b) => replaceText(s, text(a), text(b), true) }],
  ['padStart', { min: 1, max: 2, type: T.STRING, string: (s, a, b) => pad(s, a, b, true) }],
  ['padEnd', { min: 1, max: 2, type: T.STRING, string: (s, a, b) => pad(s, a, b, false) }],
  ['repeat', { min: 1, max: 1, type: T.STRING, string: (s, a) => repeat(s, a) }],
  ['join', { min: 0, max: 1, type: T.STRING, array: (x, a) => joinArray(x, a === undefined ? ',' : toStr(a)) }],
  [
    'toFixed',
    {
      min: 0,
      max: 1,
      type: T.STRING,
      number: (n, a) => n.toFixed(a === undefined ? 0 : checkRange('toFixed() digits', toNum(a), 0, 100)),
    },
  ],
  [
    'toPrecision',
    {
      min: 0,
      max: 1,
      type: T.STRING,
      number: (n, a) =>
        a === undefined || !Number.isFinite(n)
          ? n.toPrecision()
          : n.toPrecision(checkRange('toPrecision() precision', toNum(a), 1, 100)),
    },
  ],
  [
    'toString',
    {
      min: 0,
      max: 1,
      type: T.STRING,
      string: (s) => s,
      number: (n, a) => n.toString(a === undefined ? 10 : checkRange('toString() radix', toNum(a), 2, 36)),
      boolean: (v) => String(v),
      array: (x) => joinArray(x, ','),
    },
  ],
];

/** Whitelisted methods by name. */
export const METHODS: ReadonlyMap<string, MethodSpec> = new Map(METHOD_LIST);

function receivers(spec: MethodSpec): string {
  const names = [
    spec.string && 'a string',
    spec.array && 'an array',
    spec.number && 'a number',
    spec.boolean && 'a boolean',
  ].filter(Boolean);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]!}`;
}

/** Calls a whitelisted method on `receiver`, or throws `DT_ERR_EVAL_METHOD_RECEIVER`. */
export function invokeMethod(name: string, spec: MethodSpec, receiver: unknown, a: unknown, b: unknown): unknown {
  switch (typeof receiver) {
    case 'string':
      if (spec.string !== undefined) return spec.string(receiver, a, b);
      break;
    case 'number':
      if (spec.number !== undefined) return spec.number(receiver, a, b);
      break;
    case 'boolean':
      if (spec.boolean !== undefined) return spec.boolean(receiver);
      break;
    case 'object':
      if (spec.array !== undefined && Array.isArray(receiver)) return spec.array(receiver, a, b);
      break;
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      break;
  }
  throw new ExpressionEvaluationError(
    'DT_ERR_EVAL_METHOD_RECEIVER',
    `${name}() needs ${receivers(spec)}, got ${describeType(receiver)}`,
  );
}
