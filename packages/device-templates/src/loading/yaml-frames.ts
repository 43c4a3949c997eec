import { formatPlace, loadFailure } from './load-failure.js';
import { intAt } from './int-at.js';
import type { LineIndex } from './line-index.js';
import { skipBlank } from './yaml-gaps.js';

/** The parts of js-yaml's parser state that its `listener` option exposes and we read. */
export interface YamlParserState {
  readonly position: number;
  readonly kind: string | null;
  readonly result: unknown;
  readonly tag: string | null;
  readonly anchor: string | null;
}

/** Frame kinds, as stored in `YamlFrames.kind`. */
export const FRAME_EMPTY = 0; // no content of its own: an empty node, or an alias (see isAlias)
export const FRAME_SCALAR = 1;
export const FRAME_SEQUENCE = 2;
export const FRAME_MAPPING = 3;

/** Explicit tags that produce plain JSON data; any other tag is refused. */
const JSON_TAGS = new Set([
  '!', // the non-specific tag: "treat as a string"
  'tag:yaml.org,2002:str',
  'tag:yaml.org,2002:int',
  'tag:yaml.org,2002:float',
  'tag:yaml.org,2002:bool',
  'tag:yaml.org,2002:null',
  'tag:yaml.org,2002:seq',
  'tag:yaml.org,2002:map',
]);

/** Kind of a frame that has not closed yet. */
const FRAME_OPEN = 255;

/** Per frame, once a document uses an alias: what its value expands to (see `YamlFrames.counts`). */
export interface AliasCounts {
  /** Levels of collections in each frame's value (0 for a scalar), aliases expanded. */
  readonly height: Int32Array;
  /** Nodes in each frame's value, aliases expanded (keys included). */
  readonly size: Float64Array;
}

/**
 * Everything js-yaml reports while it parses, one frame per `open`/`close` pair of its
 * `composeNode`, numbered in the order they open (document preorder).
 *
 * Frames are not one-to-one with values: js-yaml opens a frame for each mapping key, may wrap a
 * node in an outer frame of the same value, and opens frames for attempts it abandons. The
 * recorder only stores what it sees; `yaml-structure.ts` works out which frame is which value.
 *
 * While recording it enforces the alias budget, because that is what must stop a
 * billion-laughs document early: every alias adds the expanded size of the node it repeats.
 * Sizes (and heights, for the depth limit) are only tracked once a document uses an alias, so
 * that documents without aliases do not pay for them; they are computed once per node, which
 * keeps the work linear in the text however the aliases multiply.
 */
export class YamlFrames {
  count = 0;
  /** Offset where the frame opened (before any blank space js-yaml skips inside it). */
  open: Int32Array;
  /** Offset where the frame closed (after its content). */
  close: Int32Array;
  /** Index of the first frame after this frame's subtree; the frames in between are its descendants. */
  subtreeEnd: Int32Array;
  /** One of the FRAME_* kinds. */
  kind: Uint8Array;
  /** Heights and sizes, once an alias was seen. */
  counts: AliasCounts | undefined;
  /** The value js-yaml built for the frame. */
  readonly results: unknown[];
  /** Anchored collections -> the frame that defines them. */
  readonly anchored = new Map<object, number>();
  /** Frames with a tag that is not plain JSON data, and the tag. */
  readonly foreignTags = new Map<number, string>();

  readonly #text: string;
  readonly #lines: LineIndex;
  readonly #maxAliasNodes: number;
  #aliasNodes = 0;
  #stack: Int32Array;
  #top = -1;

  constructor(text: string, lines: LineIndex, maxAliasNodes: number) {
    this.#text = text;
    this.#lines = lines;
    this.#maxAliasNodes = maxAliasNodes;
    const capacity = (text.length >> 4) + 1024;
    this.open = new Int32Array(capacity);
    this.close = new Int32Array(capacity);
    this.subtreeEnd = new Int32Array(capacity);
    this.kind = new Uint8Array(capacity);
    // Filled up front: a packed array of generic values takes stores without reallocating.
    this.results = new Array<unknown>(capacity).fill(null);
    this.#stack = new Int32Array(256);
  }

  /** The `listener` to hand to js-yaml. */
  readonly listener = (event: 'open' | 'close', state: YamlParserState): void => {
    if (event === 'open') this.#onOpen(state.position);
    else this.#onClose(state);
  };

  /** Whether frame `i` is an alias (`*name`) rather than an empty node. */
  isAlias(i: number): boolean {
    return this.kind[i] === FRAME_EMPTY && this.results[i] !== null && this.results[i] !== undefined;
  }

  /** Whether frame `i` only wraps the next frame, which holds the same collection. */
  isWrapper(i: number): boolean {
    const end = intAt(this.subtreeEnd, i);
    return (
      i + 1 < end &&
      this.subtreeEnd[i + 1] === end &&
      this.results[i + 1] === this.results[i] &&
      this.kind[i + 1] === this.kind[i]
    );
  }

  /** The frame enclosing frame `i`, or -1 (a search: meant for error reports). */
  parentOf(i: number): number {
    for (let j = i - 1; j >= 0; j -= 1) if (intAt(this.subtreeEnd, j) > i || this.kind[j] === FRAME_OPEN) return j;
    return -1;
  }

  #onOpen(position: number): void {
    const i = this.count;
    if (i === this.open.length) this.#grow();
    this.count = i + 1;
    this.open[i] = position;
    this.kind[i] = FRAME_OPEN;
    if (this.counts !== undefined) {
      this.counts.height[i] = 0;
      this.counts.size[i] = 0;
    }
    this.#top += 1;
    if (this.#top === this.#stack.length) {
      const stack = new Int32Array(this.#stack.length * 2);
      stack.set(this.#stack);
      this.#stack = stack;
    }
    this.#stack[this.#top] = i;
  }

  #onClose(state: YamlParserState): void {
    const i = intAt(this.#stack, this.#top);
    this.#top -= 1;
    const result = state.result;
    const kindName = state.kind;
    const kind =
      kindName === 'scalar'
        ? FRAME_SCALAR
        : kindName === 'mapping'
          ? FRAME_MAPPING
          : kindName === 'sequence'
            ? FRAME_SEQUENCE
            : FRAME_EMPTY;
    this.close[i] = state.position;
    this.subtreeEnd[i] = this.count;
    this.kind[i] = kind;
    this.results[i] = result;
    const tag = state.tag;
    // Implicitly resolved scalars carry '?' or the core tag they resolved to.
    if (tag !== null && tag !== '?' && !JSON_TAGS.has(tag)) this.foreignTags.set(i, tag);
    // A collection's result is its array or object.
    if (kind >= FRAME_SEQUENCE && state.anchor !== null && typeof result === 'object' && result !== null)
      this.anchored.set(result, i);
    if (kind === FRAME_EMPTY && result !== null && result !== undefined && this.counts === undefined)
      this.#startCounting();
    if (this.counts !== undefined) this.#settle(this.counts, i, this.#top >= 0 ? intAt(this.#stack, this.#top) : -1);
  }

  /** Fixes the height and size of closed frame `i` and adds them to its parent's. */
  #settle({ height, size }: AliasCounts, i: number, parent: number): void {
    const kind = this.kind[i] ?? FRAME_EMPTY;
    let h = 0;
    let s = 1;
    if (kind >= FRAME_SEQUENCE) {
      // An outer frame around a single inner frame of the same value adds no level.
      const wrapper = this.isWrapper(i);
      h = wrapper ? intAt(height, i) : intAt(height, i) + 1;
      s = wrapper ? sizeAt(size, i) : sizeAt(size, i) + 1;
    } else if (this.isAlias(i) && i + 1 < intAt(this.subtreeEnd, i) && this.results[i + 1] === this.results[i]) {
      // An outer frame around an alias on its own line: the inner frame was charged already.
      h = intAt(height, i);
      s = sizeAt(size, i);
    } else if (this.isAlias(i)) {
      const target = this.results[i];
      if (typeof target === 'object') {
        // An alias's result is not null (isAlias), so this is the anchored collection.
        const defined = target === null ? undefined : this.anchored.get(target);
        if (defined === undefined) throw this.#cycle(i);
        h = intAt(height, defined);
        s = sizeAt(size, defined);
      }
      this.#aliasNodes += s;
      if (this.#aliasNodes > this.#maxAliasNodes) throw this.#overBudget(i);
    }
    height[i] = h;
    size[i] = s;
    if (parent >= 0) {
      if (h > intAt(height, parent)) height[parent] = h;
      size[parent] = sizeAt(size, parent) + s;
    }
  }

  /** At the first alias: computes heights and sizes of all frames so far (none of them an alias). */
  #startCounting(): void {
    const count = this.count;
    const counts: AliasCounts = { height: new Int32Array(this.open.length), size: new Float64Array(this.open.length) };
    this.counts = counts;
    const parents = new Int32Array(count);
    const stack: number[] = [];
    for (let i = 0; i < count; i += 1) {
      let top = stack.at(-1);
      while (top !== undefined && this.kind[top] !== FRAME_OPEN && intAt(this.subtreeEnd, top) <= i) {
        stack.pop();
        top = stack.at(-1);
      }
      parents[i] = top ?? -1;
      stack.push(i);
    }
    // Children have higher indexes than their parents: settle from the last frame backwards.
    for (let i = count - 1; i >= 0; i -= 1) {
      if (this.kind[i] !== FRAME_OPEN && !this.isAlias(i)) this.#settle(counts, i, intAt(parents, i));
    }
  }

  #cycle(i: number) {
    const at = this.#lines.positionAt(this.#contentStart(i));
    return loadFailure(
      'DT_ERR_LOAD_ALIAS_CYCLE',
      { path: '', line: at.line, column: at.column },
      `The alias ${this.#aliasName(i)} at ${formatPlace(at)} refers to a node that contains it, which makes an ` +
        `endlessly ` +
        'nested value that JSON data cannot hold; copy the content instead of referring to the enclosing node.',
    );
  }

  #overBudget(i: number) {
    const at = this.#lines.positionAt(this.#contentStart(i));
    return loadFailure(
      'DT_ERR_LOAD_ALIAS_LIMIT',
      { path: '', line: at.line, column: at.column },
      `YAML aliases expand to more than ${this.#maxAliasNodes} nodes (the limit was passed at the alias ` +
        `${this.#aliasName(i)} at ${formatPlace(at)}); ` +
        'a document whose aliases multiply like this is refused. Write the repeated content out, use fewer aliases, ' +
        'or raise limits.maxAliasNodes.',
      { allowed: `at most ${this.#maxAliasNodes} nodes added by aliases` },
    );
  }

  #aliasName(i: number): string {
    const start = this.#contentStart(i);
    return /^\*[^\s,[\]{}]*/.exec(this.#text.slice(start, start + 100))?.[0] ?? 'here';
  }

  /** First offset of frame `i` that is not blank space or a comment. */
  #contentStart(i: number): number {
    return skipBlank(this.#text, intAt(this.open, i), this.#text.length);
  }

  #grow(): void {
    const capacity = this.open.length * 2;
    const int32 = (old: Int32Array) => {
      const next = new Int32Array(capacity);
      next.set(old);
      return next;
    };
    this.open = int32(this.open);
    this.close = int32(this.close);
    this.subtreeEnd = int32(this.subtreeEnd);
    const kind = new Uint8Array(capacity);
    kind.set(this.kind);
    this.kind = kind;
    for (let i = this.results.length; i < capacity; i += 1) this.results.push(null);
    if (this.counts !== undefined) {
      const size = new Float64Array(capacity);
      size.set(this.counts.size);
      this.counts = { height: int32(this.counts.height), size };
    }
  }
}

/** Entry `i` of a size table (see `intAt`). */
function sizeAt(size: Float64Array, i: number): number {
  return size[i] ?? 0;
}
