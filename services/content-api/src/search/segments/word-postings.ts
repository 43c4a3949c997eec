/**
 * Word postings of one segment, for engines without a text index of their own that returns
 * matches cheaply (PostgreSQL: a GIN index gives every match only through the table's rows).
 * Each word's positions (ascending) are delta-varint coded; the words are hashed into buckets
 * of about `WORDS_PER_BUCKET` words, one stored value per bucket, so a shop of 250,000 articles
 * and 500,000 distinct words is a few hundred rows and a query word costs one bucket read.
 *
 * Bucket layout, entry after entry: varint word byte length, the word (UTF-8), varint number of
 * positions, varint byte length of the positions, then the positions as varints (the first
 * itself, each next one as the difference to the one before).
 */

/** Distinct words per bucket, on average. */
export const WORDS_PER_BUCKET = 512;

/** Number of buckets for a segment of `distinctWords` words. */
export function bucketCount(distinctWords: number): number {
  return Math.max(1, Math.ceil(distinctWords / WORDS_PER_BUCKET));
}

/** Bucket of `word` among `count` (FNV-1a over its UTF-16 code units; stable across processes). */
export function bucketOf(word: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i += 1) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}

/**
 * Collects the postings of a segment while its articles stream in (positions ascending). A word
 * seen once (most ids and EANs) costs a number, not an array.
 */
export class PostingsBuilder {
  readonly #lists = new Map<string, number | number[]>();

  /** Adds the words of `searchText` (words joined by single spaces) at `position`. */
  add(position: number, searchText: string): void {
    if (searchText === '') return;
    const lists = this.#lists;
    let start = 0;
    for (;;) {
      const end = searchText.indexOf(' ', start);
      const word = end === -1 ? searchText.slice(start) : searchText.slice(start, end);
      if (word !== '') {
        const list = lists.get(word);
        // A copy as the key: a slice of 13 or more characters would keep the whole text alive.
        if (list === undefined) lists.set(word.length < 13 ? word : ownCopy(word), position);
        else if (typeof list === 'number') {
          if (list !== position) lists.set(word, [list, position]);
        } else if (list[list.length - 1] !== position) list.push(position);
      }
      if (end === -1) return;
      start = end + 1;
    }
  }

  get distinctWords(): number {
    return this.#lists.size;
  }

  /** The encoded buckets, `bucketCount(distinctWords)` of them (empty ones as empty buffers). */
  encode(): Buffer[] {
    const count = bucketCount(this.#lists.size);
    const members: string[][] = Array.from({ length: count }, () => []);
    for (const word of this.#lists.keys()) members[bucketOf(word, count)]!.push(word);
    return members.map((words) => {
      const out = new VarintWriter();
      for (const word of words) {
        const list = this.#lists.get(word)!;
        const positions = typeof list === 'number' ? [list] : list;
        const bytes = Buffer.from(word, 'utf8');
        out.varint(bytes.length);
        out.bytes(bytes);
        out.varint(positions.length);
        const lengthAt = out.reserve();
        let previous = 0;
        for (let i = 0; i < positions.length; i += 1) {
          out.varint(positions[i]! - previous);
          previous = positions[i]!;
        }
        out.patchLength(lengthAt);
      }
      return out.finish();
    });
  }
}

/** `text` as a string of its own (not a view into a longer one). */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The positions of `word` in an encoded bucket, ascending; empty when the bucket does not hold it. */
export function findPostings(bucket: Uint8Array, word: string): Uint32Array {
  const target = Buffer.from(word, 'utf8');
  const reader = { at: 0 };
  while (reader.at < bucket.length) {
    const length = readVarint(bucket, reader);
    const wordAt = reader.at;
    reader.at += length;
    const count = readVarint(bucket, reader);
    const bytes = readVarint(bucket, reader);
    if (length === target.length && target.equals(bucket.subarray(wordAt, wordAt + length))) {
      const positions = new Uint32Array(count);
      let previous = 0;
      for (let i = 0; i < count; i += 1) {
        previous += readVarint(bucket, reader);
        positions[i] = previous;
      }
      return positions;
    }
    reader.at += bytes;
  }
  return new Uint32Array(0);
}

/** How a delta changes one word's positions: both lists ascending. */
export interface PostingsChange {
  readonly removed: readonly number[];
  readonly added: readonly number[];
}

/**
 * `bucket` after a delta: each word of `changes` loses its `removed` positions and gains its
 * `added` ones (a position in both stays; a word left without positions is dropped; a word the
 * bucket lacks is appended). Other entries are copied byte for byte, and changed lists are
 * merged as they are decoded, without building arrays.
 */
export function patchBucket(bucket: Uint8Array, changes: ReadonlyMap<string, PostingsChange>): Buffer {
  // Changed words by a hash of their UTF-8 bytes, so other entries cost a hash and a lookup.
  const byHash = new Map<number, { bytes: Buffer; change: PostingsChange; seen: boolean }[]>();
  const targets: { bytes: Buffer; change: PostingsChange; seen: boolean }[] = [];
  for (const [word, change] of changes) {
    const target = { bytes: Buffer.from(word, 'utf8'), change, seen: false };
    targets.push(target);
    const hash = hashBytes(target.bytes, 0, target.bytes.length);
    const list = byHash.get(hash);
    if (list) list.push(target);
    else byHash.set(hash, [target]);
  }
  const out = new VarintWriter();
  const reader = { at: 0 };
  const data = Buffer.from(bucket.buffer, bucket.byteOffset, bucket.byteLength);
  while (reader.at < data.length) {
    const start = reader.at;
    const length = readVarint(data, reader);
    const wordAt = reader.at;
    reader.at += length;
    const count = readVarint(data, reader);
    const bytes = readVarint(data, reader);
    const end = reader.at + bytes;
    const target = byHash
      .get(hashBytes(data, wordAt, wordAt + length))
      ?.find((t) => t.bytes.length === length && data.compare(t.bytes, 0, length, wordAt, wordAt + length) === 0);
    if (!target) {
      out.bytes(data.subarray(start, end));
      reader.at = end;
      continue;
    }
    target.seen = true;
    writeMerged(out, target.bytes, target.change, data, reader, count);
    reader.at = end;
  }
  for (const target of targets) if (!target.seen) writeMerged(out, target.bytes, target.change, data, reader, 0);
  return out.finish();
}

/** FNV-1a over `bytes[from..to)`. */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i += 1) {
    hash ^= bytes[i]!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Writes one entry: `count` stored positions read at `reader` merged with `change`; nothing when none is left. */
function writeMerged(
  out: VarintWriter,
  word: Buffer,
  change: PostingsChange,
  data: Uint8Array,
  reader: { at: number },
  count: number,
): void {
  const entryAt = out.mark();
  out.varint(word.length);
  out.bytes(word);
  const countAt = out.reserve();
  const lengthAt = out.reserve();
  const { removed, added } = change;
  let written = 0;
  let previous = 0;
  const emit = (position: number) => {
    out.varint(position - previous);
    previous = position;
    written += 1;
  };
  let r = 0;
  let a = 0;
  let value = 0;
  for (let i = 0; i < count; i += 1) {
    value += readVarint(data, reader);
    while (a < added.length && added[a]! < value) emit(added[a++]!);
    while (r < removed.length && removed[r]! < value) r += 1;
    const isAdded = a < added.length && added[a] === value;
    if (isAdded) a += 1;
    if (isAdded || !(r < removed.length && removed[r] === value)) emit(value);
  }
  while (a < added.length) emit(added[a++]!);
  if (written === 0) {
    out.rewind(entryAt);
    return;
  }
  out.patchVarint(countAt, written);
  out.patchLength(lengthAt);
}

/** Every word of an encoded bucket with its positions (for checks and tests). */
export function decodeBucket(bucket: Uint8Array): Map<string, number[]> {
  const words = new Map<string, number[]>();
  const reader = { at: 0 };
  while (reader.at < bucket.length) {
    const length = readVarint(bucket, reader);
    const word = Buffer.from(bucket.buffer, bucket.byteOffset + reader.at, length).toString('utf8');
    reader.at += length;
    const count = readVarint(bucket, reader);
    readVarint(bucket, reader);
    const positions: number[] = [];
    let previous = 0;
    for (let i = 0; i < count; i += 1) positions.push((previous += readVarint(bucket, reader)));
    words.set(word, positions);
  }
  return words;
}

/** Positions present in every list (each ascending); the shortest list drives, the others are searched. */
export function intersectPostings(lists: readonly Uint32Array[]): Uint32Array {
  if (lists.length === 0) return new Uint32Array(0);
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let result = sorted[0]!;
  for (let l = 1; l < sorted.length && result.length > 0; l += 1) {
    const other = sorted[l]!;
    const kept = new Uint32Array(result.length);
    let n = 0;
    let j = 0;
    for (let i = 0; i < result.length; i += 1) {
      const value = result[i]!;
      // Gallop forward in `other` to the first element not below `value`.
      let step = 1;
      let high = j;
      while (high < other.length && other[high]! < value) {
        j = high + 1;
        high += step;
        step *= 2;
      }
      if (high > other.length) high = other.length;
      while (j < high) {
        const middle = (j + high) >>> 1;
        if (other[middle]! < value) j = middle + 1;
        else high = middle;
      }
      if (j === other.length) break;
      if (other[j] === value) kept[n++] = value;
    }
    result = kept.subarray(0, n);
  }
  return result;
}

function readVarint(bytes: Uint8Array, reader: { at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[reader.at++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
}

/** A growing byte buffer with varints and one reserved 5-byte length slot at a time. */
class VarintWriter {
  #buffer = Buffer.allocUnsafe(1024);
  #at = 0;

  #room(n: number): void {
    if (this.#at + n <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#at + n));
    this.#buffer.copy(grown, 0, 0, this.#at);
    this.#buffer = grown;
  }

  varint(value: number): void {
    this.#room(8);
    let v = value;
    while (v >= 0x80) {
      this.#buffer[this.#at++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#buffer[this.#at++] = v;
  }

  bytes(bytes: Uint8Array): void {
    this.#room(bytes.length);
    this.#buffer.set(bytes, this.#at);
    this.#at += bytes.length;
  }

  /** Reserves a fixed 5-byte varint for a length written later (`patchLength`). */
  reserve(): number {
    this.#room(5);
    const at = this.#at;
    this.#at += 5;
    return at;
  }

  /** Writes the bytes since `at + 5` as a 5-byte varint at `at`. */
  patchLength(at: number): void {
    this.patchVarint(at, this.#at - at - 5);
  }

  /** Writes `value` as a 5-byte varint (continuation bits on the first four) at a reserved `at`. */
  patchVarint(at: number, value: number): void {
    let v = value;
    for (let i = 0; i < 4; i += 1) {
      this.#buffer[at + i] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#buffer[at + 4] = v;
  }

  /** Where the next byte goes. */
  mark(): number {
    return this.#at;
  }

  /** Drops what was written since `mark`. */
  rewind(mark: number): void {
    this.#at = mark;
  }

  finish(): Buffer {
    return Buffer.from(this.#buffer.subarray(0, this.#at));
  }
}
