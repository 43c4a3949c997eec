import { isObject } from '@triad/common';

/** A `datapoints.<id>` or `datapoints['<id>']` reference found in the text, with the id's span. */
export interface DatapointReference {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

const ID_CHAR = /[\w#&-]/;

/** What `datapoint.<field>` and `datapoints.<id>.<field>` may read (the expression compiler's list). */
export const DATAPOINT_FIELDS: readonly string[] = Object.freeze(['value', 'rawValue', 'quality', 'timestamp']);

/**
 * The datapoint reference whose id the cursor at `offset` is on, read from the raw text of an
 * expression (`datapoints.temp`, `datapoints['if#1']`), or undefined.
 */
export function datapointReferenceAt(text: string, offset: number): DatapointReference | undefined {
  let start = offset;
  while (start > 0 && ID_CHAR.test(text.charAt(start - 1))) start--;
  let end = offset;
  while (end < text.length && ID_CHAR.test(text.charAt(end))) end++;
  if (end === start) return undefined;
  const before = text.slice(Math.max(0, start - 40), start);
  const dotted = /datapoints\s*\.\s*$/.test(before);
  if (!dotted && !/datapoints\s*\[\s*\\?['"]$/.test(before)) return undefined;
  return { id: text.slice(start, end), start, end };
}

/** True when `path` is a value or boolean expression, where `datapoints.<id>` may be written. */
export function isExpressionPath(path: readonly (string | number)[]): boolean {
  return path[0] === 'datapointSets' && path[path.length - 1] === 'expression';
}

/** The datapoint at `index` of the set at `path[1]` of a template value, if it is an object. */
export function datapointOfSet(
  template: unknown,
  path: readonly (string | number)[],
  index: number,
): Record<string, unknown> | undefined {
  const sets = isObject(template) ? template['datapointSets'] : undefined;
  const set: unknown = Array.isArray(sets) ? sets[Number(path[1])] : undefined;
  const datapoints = isObject(set) ? set['datapoints'] : undefined;
  const datapoint: unknown = Array.isArray(datapoints) ? datapoints[index] : undefined;
  return isObject(datapoint) ? datapoint : undefined;
}

/** The datapoint ids of the set at `path[1]` of a template value, with each datapoint's index. */
export function datapointsOfSet(template: unknown, path: readonly (string | number)[]): Map<string, number> {
  const ids = new Map<string, number>();
  if (path[0] !== 'datapointSets' || !isObject(template)) return ids;
  const sets = template['datapointSets'];
  const set: unknown = Array.isArray(sets) ? sets[Number(path[1])] : undefined;
  const datapoints = isObject(set) ? set['datapoints'] : undefined;
  if (!Array.isArray(datapoints)) return ids;
  datapoints.forEach((datapoint: unknown, index) => {
    const common = isObject(datapoint) ? datapoint['commonConfig'] : undefined;
    const id = isObject(common) ? common['datapointId'] : undefined;
    if (typeof id === 'string' && !ids.has(id)) ids.set(id, index);
  });
  return ids;
}
