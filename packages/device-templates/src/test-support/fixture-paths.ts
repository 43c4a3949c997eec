/**
 * Typed access into template fixtures: plain JSON data that tests edit, including into shapes
 * the schema forbids. Instead of typing fixtures `any`, a test walks to the object or list it
 * edits: `objectAt(t, 'datapointSets', 0, 'datapoints', 2).unitsConfig = { from: 'C' }`.
 * Test-only (excluded from the build).
 */
import { isObject } from '@triad/common';

/** A JSON object of a fixture: any key; what a key holds is checked where it is read. */
export type Doc = Record<string, unknown>;

/** One step into a fixture: an object key or a list index. */
export type Step = string | number;

function walk(root: unknown, path: readonly Step[]): unknown {
  let node = root;
  for (const [i, step] of path.entries()) {
    const next: unknown =
      Array.isArray(node) && typeof step === 'number' ? node[step] : isObject(node) ? node[step] : undefined;
    if (next === undefined) throw new Error(`fixture has nothing at ${describe(path.slice(0, i + 1))}`);
    node = next;
  }
  return node;
}

function describe(path: readonly Step[]): string {
  return path.length === 0 ? 'the root' : path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
}

/**
 * The object at `path` below `root`, to read or edit in place.
 *
 * @throws Error naming the path when a step is missing or the target is not an object.
 */
export function objectAt(root: unknown, ...path: readonly Step[]): Doc {
  const node = walk(root, path);
  if (!isObject(node)) throw new Error(`fixture value at ${describe(path)} is not an object`);
  return node;
}

/**
 * The list at `path` below `root`, to read or edit in place.
 *
 * @throws Error naming the path when a step is missing or the target is not a list.
 */
export function listAt(root: unknown, ...path: readonly Step[]): unknown[] {
  const node = walk(root, path);
  if (!Array.isArray(node)) throw new Error(`fixture value at ${describe(path)} is not a list`);
  return node;
}
