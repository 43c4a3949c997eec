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
import { hasDigit } from './term-dictionary.js';
import { readVarint, VarintWriter } from './varint-bytes.js';

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
 * Collects the postings of a segment while its articles stream in (positions ascending). Words
 * are found in an open-addressing table of their FNV-1a hashes (the hash `bucketOf` uses),
 * compared in place in the text, so an occurrence of a known word allocates nothing; each
 * occurrence is one entry of a linked list per word in two typed arrays. Measured at half the
 * time of a `Map` from word to positions, with less garbage (decision 0025).
 */
export class PostingsBuilder {
  /** Distinct words by id, in order of first occurrence. */
  readonly #words: string[] = [];
  /** Hash table: id + 1 of the word in each slot, 0 for empty; at most half full. */
  #table = new Int32Array(1 << 12);
  #hash = new Int32Array(1 << 11);
  /** The last position each word was added at, and how many positions it has. */
  #last = new Uint32Array(1 << 11);
  #count = new Int32Array(1 << 11);
  /** Occurrences in the order added: position and word id. */
  #position = new Uint32Array(1 << 14);
  #wordOf = new Int32Array(1 << 14);
  #occurrences = 0;

  /** Adds the words of `searchText` (words joined by single spaces) at `position`. */
  add(position: number, searchText: string): void {
    const length = searchText.length;
    let start = 0;
    while (start < length) {
      let end = start;
      let hash = 0x811c9dc5;
      for (; end < length; end += 1) {
        const code = searchText.charCodeAt(end);
        if (code === 32) break;
        hash = Math.imul(hash ^ code, 0x01000193);
      }
      if (end > start) this.#occur(position, searchText, start, end, hash);
      start = end + 1;
    }
  }

  #occur(position: number, text: string, start: number, end: number, hash: number): void {
    const mask = this.#table.length - 1;
    let slot = hash & mask;
    let id = -1;
    for (;;) {
      const entry = this.#table[slot] ?? 0;
      if (entry === 0) break;
      if (this.#hash[entry - 1] === hash) {
        const word = this.#words[entry - 1] ?? '';
        if (word.length === end - start && text.startsWith(word, start)) {
          id = entry - 1;
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
    if (id === -1) {
      id = this.#words.length;
      const word = text.slice(start, end);
      // A copy: a slice of 13 or more characters would keep the whole text alive.
      this.#words.push(word.length < 13 ? word : ownCopy(word));
      if (id === this.#last.length) this.#growWords();
      this.#hash[id] = hash;
      this.#last[id] = NO_POSITION;
      this.#table[slot] = id + 1;
      if (this.#words.length * 2 > this.#table.length) this.#rehash();
    }
    if (this.#last[id] === position) return;
    this.#last[id] = position;
    if (this.#occurrences === this.#position.length) {
      this.#position = grown(this.#position);
      this.#wordOf = grown(this.#wordOf);
    }
    this.#position[this.#occurrences] = position;
    this.#wordOf[this.#occurrences] = id;
    this.#count[id] = (this.#count[id] ?? 0) + 1;
    this.#occurrences += 1;
  }

  #growWords(): void {
    this.#hash = grown(this.#hash);
    this.#last = grown(this.#last);
    this.#count = grown(this.#count);
  }

  #rehash(): void {
    const table = new Int32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.#words.length; id += 1) {
      let slot = (this.#hash[id] ?? 0) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.#table = table;
  }

  get distinctWords(): number {
    return this.#words.length;
  }

  /** The encoded buckets, `bucketCount(distinctWords)` of them (empty ones as empty buffers). */
  encode(): Buffer[] {
    const words = this.#words.length;
    const count = bucketCount(words);
    // Words grouped by bucket (counting sort), then every occurrence put at its word's place in
    // that order: one pass in the order added, so each word's positions come out ascending.
    const bucketStart = new Int32Array(count + 1);
    for (let id = 0; id < words; id += 1) {
      const b = (((this.#hash[id] ?? 0) >>> 0) % count) + 1;
      bucketStart[b] = (bucketStart[b] ?? 0) + 1;
    }
    for (let b = 0; b < count; b += 1) bucketStart[b + 1] = (bucketStart[b + 1] ?? 0) + (bucketStart[b] ?? 0);
    const members = new Int32Array(words);
    const nextMember = bucketStart.slice(0, count);
    for (let id = 0; id < words; id += 1) {
      const b = ((this.#hash[id] ?? 0) >>> 0) % count;
      const m = nextMember[b] ?? 0;
      nextMember[b] = m + 1;
      members[m] = id;
    }
    const start = new Float64Array(words); // first place of each word's positions
    let at = 0;
    for (let m = 0; m < words; m += 1) {
      const id = members[m] ?? 0;
      start[id] = at;
      at += this.#count[id] ?? 0;
    }
    const sorted = new Uint32Array(at);
    const next = Float64Array.from(start);
    for (let o = 0; o < this.#occurrences; o += 1) {
      const id = this.#wordOf[o] ?? 0;
      const place = next[id] ?? 0;
      next[id] = place + 1;
      sorted[place] = this.#position[o] ?? 0;
    }
    const buckets: Buffer[] = [];
    for (let b = 0; b < count; b += 1) {
      const out = new VarintWriter();
      for (let m = bucketStart[b] ?? 0; m < (bucketStart[b + 1] ?? 0); m += 1) {
        const id = members[m] ?? 0;
        const n = this.#count[id] ?? 0;
        const word = this.#words[id];
        if (word === undefined) throw new RangeError(`no word ${id}`);
        out.utf8(word);
        out.varint(n);
        const lengthAt = out.reserve();
        let previous = 0;
        for (let i = start[id] ?? 0, end = i + n; i < end; i += 1) {
          out.varint((sorted[i] ?? 0) - previous);
          previous = sorted[i] ?? 0;
        }
        out.patchLength(lengthAt);
      }
      buckets.push(out.finish());
    }
    return buckets;
  }
}

/** Positions are below 2^32 - 1 (`SLOT_SPAN`): this one is none. */
const NO_POSITION = 0xffff_ffff;

/** A copy of `array` twice as long. */
function grown<T extends Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(array: T): T {
  const copy = new (array.constructor as new (length: number) => T)(array.length * 2);
  copy.set(array);
  return copy;
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

/** Every word of an encoded bucket with its number of positions (articles), positions skipped. */
export function bucketWords(bucket: Uint8Array): [word: string, articles: number][] {
  const words: [string, number][] = [];
  const reader = { at: 0 };
  const data = Buffer.from(bucket.buffer, bucket.byteOffset, bucket.byteLength);
  while (reader.at < data.length) {
    const length = readVarint(data, reader);
    const word = data.toString('utf8', reader.at, reader.at + length);
    reader.at += length;
    const count = readVarint(data, reader);
    const bytes = readVarint(data, reader);
    reader.at += bytes;
    words.push([word, count]);
  }
  return words;
}

/**
 * The vocabulary of an encoded bucket, stored beside it (decision 0040, step 4) so that a reader
 * learns a segment's words without reading their positions: the words without a digit first,
 * then those with one (`hasDigit`; a reader may want only the first), each part in bucket order.
 * Layout: the number of words without a digit and with one (varints), each word's number of
 * positions (articles, varints) in that order, the byte length of the first part's text (varint),
 * then the words in UTF-8 joined by newlines, the first part's, a newline when both have words,
 * the second's (words are runs of letters and digits: none holds a newline).
 */
export function bucketVocabulary(bucket: Uint8Array): Buffer {
  const data = Buffer.from(bucket.buffer, bucket.byteOffset, bucket.byteLength);
  const reader = { at: 0 };
  const parts = [
    { words: [] as string[], counts: [] as number[] },
    { words: [] as string[], counts: [] as number[] },
  ] as const;
  while (reader.at < data.length) {
    const length = readVarint(data, reader);
    const word = data.toString('utf8', reader.at, reader.at + length);
    reader.at += length;
    const part = parts[hasDigit(word) ? 1 : 0];
    part.words.push(word);
    part.counts.push(readVarint(data, reader));
    const bytes = readVarint(data, reader);
    reader.at += bytes;
  }
  const out = new VarintWriter();
  const [letters, digits] = parts;
  out.varint(letters.words.length);
  out.varint(digits.words.length);
  for (const count of [...letters.counts, ...digits.counts]) out.varint(count);
  const first = letters.words.join('\n');
  out.varint(Buffer.byteLength(first, 'utf8'));
  const text =
    digits.words.length === 0
      ? first
      : letters.words.length === 0
        ? digits.words.join('\n')
        : `${first}\n${digits.words.join('\n')}`;
  out.bytes(Buffer.from(text, 'utf8'));
  return out.finish();
}

/**
 * The words and article counts of a bucket's stored vocabulary (`bucketVocabulary`): those
 * without a digit, those with one, or all (without a digit first), each part in bucket order.
 */
export function vocabularyWords(
  vocabulary: Uint8Array,
  which: 'letters' | 'digits' | 'all' = 'all',
): [word: string, articles: number][] {
  const { terms, articles } = vocabularyLists(vocabulary, which);
  return terms.map((word, i) => [word, articles[i] ?? 0]);
}

/** `vocabularyWords` as two lists, words and their article counts, without a pair per word. */
export function vocabularyLists(
  vocabulary: Uint8Array,
  which: 'letters' | 'digits' | 'all' = 'all',
): { terms: string[]; articles: number[] } {
  const { start, end, articles } = vocabularyPart(vocabulary, which);
  if (articles.length === 0) return { terms: [], articles: [] };
  const data = Buffer.from(vocabulary.buffer, vocabulary.byteOffset, vocabulary.byteLength);
  const terms = data.toString('utf8', start, end).split('\n');
  if (terms.length !== articles.length)
    throw new RangeError(`a bucket vocabulary of ${articles.length} words (${which}) holds ${terms.length}`);
  return { terms, articles: Array.from(articles) };
}

/**
 * The words with a digit of a bucket's stored vocabulary (`bucketVocabulary`) as it holds them:
 * their UTF-8 text, one per line, and their article counts, in bucket order. Nothing is decoded.
 */
export function vocabularyDigitBytes(vocabulary: Uint8Array): {
  bytes: Uint8Array;
  from: number;
  to: number;
  articles: Uint32Array;
} {
  const { start, end, articles } = vocabularyPart(vocabulary, 'digits');
  return { bytes: vocabulary, from: start, to: end, articles };
}

/**
 * Where the words `which` of a bucket's stored vocabulary are: their text, one per line, at
 * `vocabulary[start..end)`, and their article counts.
 */
function vocabularyPart(
  vocabulary: Uint8Array,
  which: 'letters' | 'digits' | 'all',
): { start: number; end: number; articles: Uint32Array } {
  const reader = { at: 0 };
  const letters = readVarint(vocabulary, reader);
  const digits = readVarint(vocabulary, reader);
  const from = which === 'digits' ? letters : 0;
  const to = which === 'letters' ? letters : letters + digits;
  const articles = new Uint32Array(to - from);
  for (let i = 0; i < letters + digits; i += 1) {
    const count = readVarint(vocabulary, reader);
    if (i >= from && i < to) articles[i - from] = count;
  }
  const firstBytes = readVarint(vocabulary, reader);
  // The words with a digit follow the others after a line break, when there are both.
  const start =
    which !== 'digits' ? reader.at : digits === 0 ? vocabulary.length : reader.at + firstBytes + (letters > 0 ? 1 : 0);
  const end = which === 'letters' ? reader.at + firstBytes : vocabulary.length;
  return { start, end, articles };
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
  const [shortest, ...others] = [...lists].sort((a, b) => a.length - b.length);
  if (shortest === undefined) return new Uint32Array(0);
  let result = shortest;
  for (const other of others) {
    if (result.length === 0) break;
    const kept = new Uint32Array(result.length);
    let n = 0;
    let j = 0;
    for (let i = 0; i < result.length; i += 1) {
      const value = result[i] ?? 0;
      // Gallop forward in `other` to the first element not below `value`.
      let step = 1;
      let high = j;
      while (high < other.length && (other[high] ?? 0) < value) {
        j = high + 1;
        high += step;
        step *= 2;
      }
      if (high > other.length) high = other.length;
      while (j < high) {
        const middle = (j + high) >>> 1;
        if ((other[middle] ?? 0) < value) j = middle + 1;
        else high = middle;
      }
      if (j === other.length) break;
      if (other[j] === value) kept[n++] = value;
    }
    result = kept.subarray(0, n);
  }
  return result;
}
