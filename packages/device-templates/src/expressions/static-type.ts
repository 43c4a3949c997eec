/**
 * What the compiler knows about the values a part of an expression can yield: a bit set of
 * JavaScript types. `datapoint.value` is `ANY`; a comparison is `BOOLEAN`.
 */
export type StaticType = number;

export const T = Object.freeze({
  BOOLEAN: 1,
  NUMBER: 2,
  STRING: 4,
  NULL: 8,
  UNDEFINED: 16,
  OBJECT: 32,
  ANY: 63,
});

/** The types a value may have after `a && b` yields the left side (a falsy left side). */
export function falsyPart(t: StaticType): StaticType {
  return t & ~T.OBJECT;
}

/** The types `a || b` may yield from a truthy left side. */
export function truthyPart(t: StaticType): StaticType {
  return t & ~(T.NULL | T.UNDEFINED);
}

/** The static type of a known value. */
export function typeOfValue(v: unknown): StaticType {
  switch (typeof v) {
    case 'boolean':
      return T.BOOLEAN;
    case 'number':
      return T.NUMBER;
    case 'string':
      return T.STRING;
    case 'undefined':
      return T.UNDEFINED;
    case 'object':
      return v === null ? T.NULL : T.OBJECT;
    case 'bigint':
    case 'function':
    case 'symbol':
      return T.ANY;
  }
}

const NAMES: readonly [number, string][] = [
  [T.BOOLEAN, 'boolean'],
  [T.NUMBER, 'number'],
  [T.STRING, 'string'],
  [T.NULL, 'null'],
  [T.UNDEFINED, 'undefined'],
  [T.OBJECT, 'array or object'],
];

/** `number or string`, for messages. */
export function describeStaticType(t: StaticType): string {
  const names = NAMES.filter(([bit]) => (t & bit) !== 0).map(([, name]) => name);
  return names.length <= 1
    ? (names[0] ?? 'nothing')
    : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]!}`;
}
