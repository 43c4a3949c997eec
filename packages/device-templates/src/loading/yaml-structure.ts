import { toJsonPointer } from '../problem.js';
import { formatPlace, loadFailure, quoteForMessage } from './load-failure.js';
import { intAt } from './int-at.js';
import type { LineIndex } from './line-index.js';
import { FRAME_EMPTY, FRAME_MAPPING, FRAME_SCALAR, type YamlFrames } from './yaml-frames.js';
import { gapDashes, gapDashCount, scanGap } from './yaml-gaps.js';
import { NO_VALUE, pathOf, resolveAlias, unwrap, valueStart, type YamlStructure } from './yaml-positions.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Mappings with more keys than this check duplicates with a Map instead of pairwise. */
const PAIRWISE_KEY_LIMIT = 24;

/**
 * Works out the value tree of the one document whose root frame is `root`, and refuses what is
 * not plain JSON data or breaks a limit: non-string keys (`DT_ERR_LOAD_KEY_NOT_STRING`), merge
 * keys (`DT_ERR_LOAD_MERGE_KEY`), duplicate keys (`DT_ERR_LOAD_DUPLICATE_KEY`), foreign tags
 * (`DT_ERR_LOAD_TAG`), infinite numbers and NaN (`DT_ERR_LOAD_NOT_FINITE`) and nesting deeper than
 * `maxDepth`, aliases expanded (`DT_ERR_LOAD_TOO_DEEP`).
 *
 * Which child frame is a key, a value or a sequence element is read from the indicators in the
 * text between them (see `yaml-gaps.ts`); `- ` entries that js-yaml gives no frame (null
 * elements) are found the same way.
 */
export function buildYamlStructure(
  frames: YamlFrames,
  text: string,
  lines: LineIndex,
  root: number,
  maxDepth: number,
): YamlStructure {
  const builder = new StructureBuilder(frames, text, lines, root, maxDepth);
  builder.run();
  return builder.structure;
}

class StructureBuilder {
  readonly structure: Mutable<YamlStructure>;
  readonly #frames: YamlFrames;
  readonly #text: string;
  readonly #lines: LineIndex;
  readonly #maxDepth: number;
  #entries: Int32Array;
  #top = 0;
  readonly #pairItems = new Map<number, number>();
  readonly #nodes: number[] = [];
  readonly #depths: number[] = [];
  /** Keys of the mapping being classified: the first `#keyCount` entries. */
  readonly #keyFrames: number[] = [];
  /** Their names, in the same order. */
  readonly #keyNames: string[] = [];
  #keyCount = 0;
  #keyIndex: Map<string, number> | undefined;

  constructor(frames: YamlFrames, text: string, lines: LineIndex, root: number, maxDepth: number) {
    this.#frames = frames;
    this.#text = text;
    this.#lines = lines;
    this.#maxDepth = maxDepth;
    this.#entries = new Int32Array(Math.max(64, frames.count));
    const nodeParent = new Int32Array(frames.count).fill(-2);
    nodeParent[root] = -1;
    this.structure = {
      frames,
      text,
      root,
      entryStart: new Int32Array(frames.count).fill(-1),
      entryCount: new Int32Array(frames.count),
      entries: this.#entries,
      pairItems: this.#pairItems,
      nodeParent,
    };
  }

  run(): void {
    const frames = this.#frames;
    const nodes = this.#nodes;
    const depths = this.#depths;
    nodes.push(this.structure.root);
    depths.push(0);
    for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
      const depth = depths.pop() ?? 0; // collections around this node (pushed with it)
      if (frames.isAlias(node)) {
        const target = resolveAlias(frames, node);
        if (target >= 0 && depth + (frames.counts?.height[target] ?? 0) > this.#maxDepth) this.#tooDeep(node, true);
        continue;
      }
      const inner = unwrap(frames, node);
      const kind = frames.kind[inner];
      if (kind === FRAME_SCALAR) {
        const value = frames.results[inner];
        if (typeof value === 'number' && !Number.isFinite(value)) this.#notFinite(node);
        continue;
      }
      if (kind === FRAME_EMPTY) continue;
      if (depth + 1 > this.#maxDepth) this.#tooDeep(node, false);
      const first = nodes.length;
      this.structure.entryStart[node] = this.#top;
      if (kind === FRAME_MAPPING) this.#mapping(node, inner);
      else this.#sequence(node, inner);
      this.structure.entryCount[node] =
        (this.#top - intAt(this.structure.entryStart, node)) / (kind === FRAME_MAPPING ? 2 : 1);
      // Children were pushed in document order; reverse them so they are visited in that order.
      const children = nodes.splice(first).reverse();
      for (const child of children) {
        nodes.push(child);
        depths.push(depth + 1);
        this.structure.nodeParent[child] = node;
      }
    }
    this.structure.entries = this.#entries.subarray(0, this.#top);
    this.#checkTags();
  }

  #mapping(node: number, inner: number): void {
    const frames = this.#frames;
    const text = this.#text;
    this.#keyCount = 0;
    this.#keyIndex = undefined;
    let pending = -1;
    let previousEnd = intAt(frames.open, inner);
    const end = intAt(frames.subtreeEnd, inner);
    for (let child = inner + 1; child < end; child = intAt(frames.subtreeEnd, child)) {
      if (scanGap(text, previousEnd, intAt(frames.open, child))) {
        this.#pair(node, pending, child);
        pending = -1;
      } else {
        if (pending >= 0) this.#pair(node, pending, NO_VALUE);
        pending = child;
      }
      previousEnd = intAt(frames.close, child);
    }
    // js-yaml may end a block mapping with a frame for a key it then does not find.
    if (pending >= 0 && !(frames.kind[pending] === FRAME_EMPTY && !frames.isAlias(pending)))
      this.#pair(node, pending, NO_VALUE);
  }

  #sequence(node: number, inner: number): void {
    const frames = this.#frames;
    const text = this.#text;
    let previousEnd = intAt(frames.open, inner);
    let previousItem = -1;
    const end = intAt(frames.subtreeEnd, inner);
    for (let child = inner + 1; child < end; child = intAt(frames.subtreeEnd, child)) {
      if (scanGap(text, previousEnd, intAt(frames.open, child)) && previousItem >= 0) {
        // `[key: value]`: the element is a one-pair mapping; the previous frame was its key.
        this.#checkKey(node, previousItem);
        this.#pairItems.set(previousItem, child);
        this.#nodes.push(child);
        previousItem = -1;
      } else {
        // Every `- ` before this element's own belongs to a null element js-yaml made no frame for.
        for (let d = 0; d < gapDashCount() - 1; d += 1) this.#push(-(gapDashes[d] ?? 0) - 2);
        this.#push(child);
        this.#nodes.push(child);
        previousItem = child;
      }
      previousEnd = intAt(frames.close, child);
    }
    scanGap(text, previousEnd, intAt(frames.close, inner));
    for (let d = 0; d < gapDashCount(); d += 1) this.#push(-(gapDashes[d] ?? 0) - 2);
  }

  #pair(node: number, key: number, value: number): void {
    if (key < 0) {
      const at = this.#lines.positionAt(valueStart(this.structure, value));
      throw loadFailure(
        'DT_ERR_LOAD_KEY_NOT_STRING',
        { path: toJsonPointer(pathOf(this.structure, node)), line: at.line, column: at.column },
        `A mapping value at ${formatPlace(at)} has no key; write the key before the ':'.`,
      );
    }
    const name = this.#checkKey(node, key);
    const keyFrames = this.#keyFrames;
    const keyNames = this.#keyNames;
    if (this.#keyIndex !== undefined) {
      const earlier = this.#keyIndex.get(name);
      if (earlier !== undefined) this.#duplicate(node, earlier, key, name);
      this.#keyIndex.set(name, key);
    } else {
      const count = this.#keyCount;
      for (let k = 0; k < count; k += 1) {
        const earlier = keyFrames[k];
        if (keyNames[k] === name && earlier !== undefined) this.#duplicate(node, earlier, key, name);
      }
      keyFrames[count] = key;
      keyNames[count] = name;
      this.#keyCount = count + 1;
      if (count + 1 > PAIRWISE_KEY_LIMIT) {
        const index = new Map<string, number>();
        for (let k = 0; k <= count; k += 1) {
          const frame = keyFrames[k];
          const frameName = keyNames[k];
          if (frame !== undefined && frameName !== undefined) index.set(frameName, frame);
        }
        this.#keyIndex = index;
      }
    }
    this.#push(key);
    this.#push(value);
    if (value >= 0) this.#nodes.push(value);
  }

  #push(entry: number): void {
    if (this.#top === this.#entries.length) {
      const bigger = new Int32Array(this.#entries.length * 2);
      bigger.set(this.#entries);
      this.#entries = bigger;
      this.structure.entries = bigger; // error messages read entries while building
    }
    this.#entries[this.#top] = entry;
    this.#top += 1;
  }

  /** The name of key frame `key`; refuses a key that is no string, and a merge key. */
  #checkKey(node: number, key: number): string {
    const name = this.#frames.results[key];
    if (typeof name === 'string' && name !== '<<') return name;
    const start = valueStart(this.structure, key);
    if (typeof name === 'string' && this.#text.charCodeAt(start) !== 0x3c /* < */) return name; // a quoted '<<'
    const at = this.#lines.positionAt(start);
    const place = { path: toJsonPointer(pathOf(this.structure, node)), line: at.line, column: at.column };
    if (typeof name === 'string') {
      throw loadFailure(
        'DT_ERR_LOAD_MERGE_KEY',
        place,
        `The merge key '<<' at ${formatPlace(at)} is not supported: templates are read as plain JSON data. ` +
          "Write the merged keys out in this mapping, or quote the key ('<<') if it is a literal key.",
      );
    }
    const written = this.#text.slice(start, Math.min(intAt(this.#frames.close, key), start + 40)).trim();
    const what =
      name === null || name === undefined
        ? 'empty (null)'
        : Array.isArray(name)
          ? 'a sequence'
          : typeof name === 'object'
            ? 'a mapping'
            : `a ${typeof name} (${written})`;
    throw loadFailure(
      'DT_ERR_LOAD_KEY_NOT_STRING',
      place,
      `The key at ${formatPlace(at)} is ${what}, but a key must be a string, as in JSON; ` +
        (typeof name === 'number' || typeof name === 'boolean'
          ? `quote it ('${written}': ...) if it is meant as text.`
          : 'write a plain text key.'),
      { found: written },
    );
  }

  #duplicate(node: number, first: number, second: number, name: string): never {
    const at = this.#lines.positionAt(valueStart(this.structure, second));
    const before = this.#lines.positionAt(valueStart(this.structure, first));
    throw loadFailure(
      'DT_ERR_LOAD_DUPLICATE_KEY',
      { path: toJsonPointer([...pathOf(this.structure, node), name]), line: at.line, column: at.column },
      `Duplicate key ${quoteForMessage(name)} at ${formatPlace(at)}: the same mapping already has it at ` +
        `${formatPlace(before)}; remove one of the two or rename it.`,
      { found: name },
    );
  }

  #tooDeep(node: number, viaAlias: boolean): never {
    const at = this.#lines.positionAt(valueStart(this.structure, node));
    throw loadFailure(
      'DT_ERR_LOAD_TOO_DEEP',
      { path: toJsonPointer(pathOf(this.structure, node)), line: at.line, column: at.column },
      `${viaAlias ? 'With its alias expanded, the value' : 'The value'} at ${formatPlace(at)} nests mappings and ` +
        `sequences more than ` +
        `${this.#maxDepth} levels deep; a template is far shallower: check for runaway nesting, or raise ` +
        `limits.maxDepth.`,
      { allowed: `at most ${this.#maxDepth} levels` },
    );
  }

  #notFinite(node: number): never {
    const start = valueStart(this.structure, node);
    const at = this.#lines.positionAt(start);
    const written = /^[^\s,\]}#]*/.exec(this.#text.slice(start, start + 40))?.[0] ?? '';
    throw loadFailure(
      'DT_ERR_LOAD_NOT_FINITE',
      { path: toJsonPointer(pathOf(this.structure, node)), line: at.line, column: at.column },
      `The number ${written} at ${formatPlace(at)} is ` +
        `${Number.isNaN(this.#frames.results[node]) ? 'not a number (NaN)' : 'infinite'}, which JSON data cannot ` +
        `hold; ` +
        `write a finite number, or quote it ('${written}') if it is meant as text.`,
      { found: written },
    );
  }

  /** Refuses the first node (in document order) with a tag that does not give JSON data. */
  #checkTags(): void {
    const frames = this.#frames;
    let first = -1;
    let tag: string | undefined;
    for (const [frame, frameTag] of frames.foreignTags) {
      if (first < 0 || frame < first) [first, tag] = [frame, frameTag];
    }
    if (tag === undefined) return;
    const at = this.#lines.positionAt(valueStart(this.structure, first));
    const shown = tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice(18)}` : tag;
    throw loadFailure(
      'DT_ERR_LOAD_TAG',
      { path: toJsonPointer(pathOf(this.structure, first)), line: at.line, column: at.column },
      `The tag ${shown} at ${formatPlace(at)} is not supported: templates hold plain JSON data, so only !!str, ` +
        `!!int, !!float, !!bool, !!null, !!seq and !!map may be written. ` +
        'Remove the tag (and quote the value if it should be text).',
      { found: shown, allowed: '!!str, !!int, !!float, !!bool, !!null, !!seq, !!map' },
    );
  }
}
