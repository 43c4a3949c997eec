import type { DocumentPath } from '../problem.js';
import { intAt } from './int-at.js';
import { arrayIndexOf } from './path-segment.js';
import { FRAME_EMPTY, FRAME_MAPPING, FRAME_SEQUENCE, type YamlFrames } from './yaml-frames.js';
import { skipBlank, skipSpaces } from './yaml-gaps.js';

/** Node indexes stored in `entries` that are not frames: a null sequence entry at offset o is -(o + 2). */
export const NO_VALUE = -1;

/**
 * The value tree of a YAML document laid over js-yaml's frames (built by `yaml-structure.ts`).
 *
 * A value node is the outermost frame of a value. For each collection node, `entries` holds,
 * from `entryStart[node]`, `entryCount[node]` items: for a mapping, (key frame, value frame or
 * NO_VALUE) pairs in source order; for a sequence, one value frame per element, or a negative
 * number for a null element written as a bare `-`. A flow-sequence element written as a pair
 * (`[a: 1]`) is its key frame, listed in `pairItems` with its value frame.
 */
export interface YamlStructure {
  readonly frames: YamlFrames;
  readonly text: string;
  readonly root: number;
  readonly entryStart: Int32Array;
  readonly entryCount: Int32Array;
  readonly entries: Int32Array;
  readonly pairItems: ReadonlyMap<number, number>;
  /** Per frame: the collection node holding it, -1 for the root, -2 for frames that are not value nodes. */
  readonly nodeParent: Int32Array;
}

/** The innermost frame holding the same value as `frame` (js-yaml sometimes wraps a node in another frame). */
export function unwrap(frames: YamlFrames, frame: number): number {
  let inner = frame;
  while ((frames.kind[inner] ?? FRAME_EMPTY) >= FRAME_SEQUENCE && frames.isWrapper(inner)) inner += 1;
  return inner;
}

/** The collection node an alias node stands for, the node itself when it is no alias, or -1. */
export function resolveAlias(frames: YamlFrames, node: number): number {
  if (!frames.isAlias(node)) return node;
  const target = frames.results[node];
  return typeof target === 'object' && target !== null ? (frames.anchored.get(target) ?? -1) : -1;
}

/**
 * Where the value of a node starts: its first character, properties (`&a`, `!tag`) included.
 * An empty value (`key:` with nothing after) is placed just after the indicator before it.
 */
export function valueStart(structure: YamlStructure, node: number): number {
  const { frames, text } = structure;
  const open = intAt(frames.open, node);
  if (frames.kind[node] === FRAME_EMPTY && !frames.isAlias(node)) return skipSpaces(text, open);
  return skipBlank(text, open, text.length);
}

/** Path segments from the root to a frame (for a frame that is no value node: to the nearest enclosing one). */
export function pathOf(structure: YamlStructure, frame: number): (string | number)[] {
  const { frames, nodeParent } = structure;
  let node = frame;
  while (node >= 0 && nodeParent[node] === -2) node = frames.parentOf(node);
  const path: (string | number)[] = [];
  while (node >= 0) {
    const holder = intAt(nodeParent, node);
    if (holder < 0) break;
    path.unshift(...segmentsTo(structure, holder, node));
    node = holder;
  }
  return path;
}

function segmentsTo(structure: YamlStructure, holder: number, child: number): (string | number)[] {
  const { frames, entries, entryStart, entryCount, pairItems } = structure;
  const start = intAt(entryStart, holder);
  const count = intAt(entryCount, holder);
  if (frames.kind[unwrap(frames, holder)] === FRAME_MAPPING) {
    for (let e = 0; e < count; e += 1) {
      if (entries[start + 2 * e + 1] === child) return [String(frames.results[intAt(entries, start + 2 * e)])];
    }
    return [];
  }
  for (let e = 0; e < count; e += 1) {
    const item = intAt(entries, start + e);
    if (item === child) return [e];
    if (item >= 0 && pairItems.get(item) === child) return [e, String(frames.results[item])];
  }
  return [];
}

/** Resolves paths to offsets over a `YamlStructure`. */
export class YamlPositions {
  readonly #structure: YamlStructure;

  constructor(structure: YamlStructure) {
    this.#structure = structure;
  }

  /**
   * Offset of the value (or with `'key'`, the key) at `path`; for a path that does not exist,
   * the value offset of the deepest existing ancestor. Paths through an alias continue in the
   * anchored node it repeats, where that value is written.
   */
  offsetOf(path: DocumentPath, which: 'value' | 'key'): number {
    const structure = this.#structure;
    const { frames, entries, entryStart, entryCount, pairItems } = structure;
    let node = structure.root;
    let keyFrame = -1;
    let bareOffset = -1; // set when the value has no frame: a bare '-' or a key without value
    let found = true;
    for (const segment of path) {
      if (bareOffset >= 0) {
        found = false;
        break;
      }
      const pairValue = pairItems.get(node);
      if (pairValue !== undefined) {
        if (String(frames.results[node]) !== String(segment)) {
          found = false;
          break;
        }
        keyFrame = node;
        node = pairValue;
        continue;
      }
      const holder = resolveAlias(frames, node);
      const start = holder < 0 ? -1 : intAt(entryStart, holder);
      if (start < 0) {
        found = false;
        break;
      }
      const count = intAt(entryCount, holder);
      if (frames.kind[unwrap(frames, holder)] === FRAME_MAPPING) {
        const name = String(segment);
        let hit = -1;
        for (let e = 0; e < count; e += 1) {
          if (String(frames.results[intAt(entries, start + 2 * e)]) === name) {
            hit = start + 2 * e;
            break;
          }
        }
        if (hit < 0) {
          found = false;
          break;
        }
        keyFrame = intAt(entries, hit);
        const value = intAt(entries, hit + 1);
        if (value === NO_VALUE) bareOffset = valueStart(structure, keyFrame);
        else node = value;
      } else {
        const index = arrayIndexOf(segment);
        if (index < 0 || index >= count) {
          found = false;
          break;
        }
        keyFrame = -1;
        const item = intAt(entries, start + index);
        if (item < 0) bareOffset = -item - 2;
        else node = item;
      }
    }
    if (which === 'key' && found && keyFrame >= 0) return valueStart(structure, keyFrame);
    return bareOffset >= 0 ? bareOffset : valueStart(structure, node);
  }
}
