import { isObject } from '@triad/common';
import { fromJsonPointer, type DocumentPath } from '../problem.js';

/**
 * Helpers that turn a place in a template into words for messages: `datapoint "ifSpeed" in
 * set "ports"`, `addressConfig.pollingGroup of datapoint "ifSpeed" in set "ports"`.
 * Everything here reads the parsed value and never throws on malformed input.
 */

/** Converts an ajv instance path (JSON Pointer) to segments, with numbers for array indexes. */
export function pointerToPath(pointer: string, root: unknown): DocumentPath {
  const out: (string | number)[] = [];
  let node = root;
  for (const key of fromJsonPointer(pointer)) {
    const segment = Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
    out.push(segment);
    node = child(node, segment);
  }
  return out;
}

/** The value at a path, or undefined when the path does not exist. */
export function valueAt(root: unknown, path: DocumentPath): unknown {
  let node = root;
  for (const segment of path) node = child(node, segment);
  return node;
}

function child(node: unknown, segment: string | number): unknown {
  if (node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) return typeof segment === 'number' ? node[segment] : undefined;
  return Object.prototype.hasOwnProperty.call(node, segment) ? Reflect.get(node, segment) : undefined;
}

/**
 * Names the place at `path` for a person: the nearest enclosing datapoint set, datapoint,
 * widget or driver entry by its identifier, and the rest as a dotted path
 * (`addressConfig of datapoint "ifSpeed" in set "ports"`). The root is `the template`.
 */
export function describePlace(root: unknown, path: DocumentPath): string {
  const { anchor, local } = splitPlace(root, path);
  if (anchor === undefined) return local === '' ? 'the template' : local;
  return local === '' ? anchor : `${local} of ${anchor}`;
}

/** Like `describePlace`, for the object that holds a key (`at the root` for the root). */
export function describeContainer(root: unknown, path: DocumentPath): string {
  return path.length === 0 ? 'at the root' : `in ${describePlace(root, path)}`;
}

/**
 * The start of a message about the value at `path`: the enclosing element, a colon and the
 * dotted key (`datapoint "ifSpeed" in set "ports": addressConfig.pollingGroup`), just the key
 * at top level (`templateVersion`), or just the element when the value is the element itself.
 */
export function subjectOf(root: unknown, path: DocumentPath): string {
  const { anchor, local } = splitPlace(root, path);
  if (anchor === undefined) return local === '' ? 'the template' : local;
  return local === '' ? anchor : `${anchor}: ${local}`;
}

/** The enclosing element's name (if any) and the dotted path below it. */
export function splitPlace(root: unknown, path: DocumentPath): { readonly anchor?: string; readonly local: string } {
  const { anchor, anchorLength } = findAnchor(root, path);
  const local = dotted(path.slice(anchorLength));
  return anchor === undefined ? { local } : { anchor, local };
}

function findAnchor(root: unknown, path: DocumentPath): { anchor?: string; anchorLength: number } {
  const [first, index, third, pointIndex] = path;
  if (first === 'datapointSets' && typeof index === 'number') {
    const set = valueAt(root, ['datapointSets', index]);
    const setName = identifierOf(set, 'datapointSetId');
    if (third === 'datapoints' && typeof pointIndex === 'number') {
      const point = valueAt(root, path.slice(0, 4));
      const pointId = isObject(point) ? identifierOf(point['commonConfig'], 'datapointId') : undefined;
      const pointName = pointId !== undefined ? `datapoint ${quote(pointId)}` : `datapoints[${pointIndex}]`;
      const inSet = setName !== undefined ? `set ${quote(setName)}` : `datapointSets[${index}]`;
      return { anchor: `${pointName} in ${inSet}`, anchorLength: 4 };
    }
    return {
      anchor: setName !== undefined ? `datapoint set ${quote(setName)}` : `datapointSets[${index}]`,
      anchorLength: 2,
    };
  }
  if ((first === 'representation' || first === 'originTypes') && typeof index === 'number') {
    return { anchor: `${first}[${index}]`, anchorLength: 2 };
  }
  return { anchorLength: 0 };
}

function identifierOf(value: unknown, key: string): string | undefined {
  const id = isObject(value) ? value[key] : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= 80 ? id : undefined;
}

/** `alertConfig.evaluations[1].severity` for `['alertConfig','evaluations',1,'severity']`. */
export function dotted(path: DocumentPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** A value quoted for a message: strings in double quotes (cut at 80 characters), others as JSON. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 79)}…` : value);
  if (value === undefined) return 'nothing';
  // JSON.stringify gives undefined only for functions and symbols, which parsed documents never hold.
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The `found` field of a problem: primitives only (strings cut at 80 characters). */
export function foundValue(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 80 ? value.slice(0, 80) : value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return undefined;
}

/** `a string`, `the number 1.2`, `null`, `a list`, `an object` for the value actually found. */
export function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `the string ${quote(value)}`;
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    case 'object':
      return 'an object';
    case 'undefined':
    case 'bigint':
    case 'function':
    case 'symbol':
      break;
  }
  return 'nothing';
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object (a mapping of keys to values)',
  array: 'a list',
  null: 'null',
};

/** `a string or a number` for a JSON Schema `type` value. */
export function describeTypes(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return orList(types.map((t) => TYPE_WORDS[String(t)] ?? String(t)));
}

/** `a, b or c`. */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] ?? ''}`;
}

/** `a, b and c`. */
export function andList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}
