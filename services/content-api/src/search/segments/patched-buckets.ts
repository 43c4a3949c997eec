import { hasDigit } from './term-dictionary.js';
import { hashBytes, readVarint, VarintWriter } from './varint-bytes.js';
import type { PostingsChange } from './word-postings.js';

/** A postings bucket after a delta, with what is stored beside it. */
export interface PatchedBucket {
  /** The bucket's bytes after the delta. */
  readonly data: Buffer;
  /** Its vocabulary, as `bucketVocabulary` gives it for `data`. */
  readonly words: Buffer;
  /** Each changed word's number of positions now (0: gone), in the order of `changes`. */
  readonly counts: ReadonlyMap<string, number>;
}

/**
 * `bucket` after a delta, with its vocabulary (`bucketVocabulary` of the result) and the changed
 * words' counts, in one pass over the bucket's bytes. Each word of `changes` loses its `removed`
 * positions and gains its `added` ones (a position in both stays; a word left without positions
 * is dropped; a word the bucket lacks is appended). Other entries are copied byte for byte, and
 * changed lists are merged as they are decoded, without building arrays. The vocabulary is copied
 * from the entries' bytes as they are written (no word becomes a string but the changed ones and
 * words with a byte over ASCII, whose digits `hasDigit` decides; the entries between two changed
 * ones copied at once), so a delta that touches every bucket of a shop does not decode every word
 * of it twice.
 */
export function patchBucketWithWords(bucket: Uint8Array, changes: ReadonlyMap<string, PostingsChange>): PatchedBucket {
  const data = Buffer.from(bucket.buffer, bucket.byteOffset, bucket.byteLength);
  const targets: Target[] = [];
  // Changed words by a hash of their UTF-8 bytes, so other entries cost a hash and a lookup.
  const byHash = new Map<number, Target[]>();
  let room = data.length + 16;
  for (const [word, change] of changes) {
    const bytes = Buffer.from(word, 'utf8');
    const target: Target = { word, bytes, change, seen: false, count: 0 };
    targets.push(target);
    room += bytes.length + 15 + 5 * change.added.length;
    const hash = hashBytes(bytes, 0, bytes.length);
    const list = byHash.get(hash);
    if (list) list.push(target);
    else byHash.set(hash, [target]);
  }
  const out = new VarintWriter(room);
  // The entries written: where each word's bytes are in `out`, its length, count, and whether it holds a digit.
  const entries = new Entries();
  const reader = { at: 0 };
  // Unchanged entries are copied in runs, at the next changed entry or the end: `run` is where
  // the run starts in `data`, `runOut` where it goes in `out`.
  let run = 0;
  let runOut = out.mark();
  while (reader.at < data.length) {
    const start = reader.at;
    const length = readVarint(data, reader);
    const wordAt = reader.at;
    reader.at += length;
    // One pass over the word's bytes: its hash, a digit, a byte over ASCII.
    let hash = 0x811c9dc5;
    let digit = false;
    let ascii = true;
    for (let i = wordAt; i < wordAt + length; i += 1) {
      const b = data[i]!;
      hash ^= b;
      hash = Math.imul(hash, 0x01000193);
      if (b >= 48 && b <= 57) digit = true;
      else if (b >= 128) ascii = false;
    }
    const count = readVarint(data, reader);
    const bytes = readVarint(data, reader);
    const end = reader.at + bytes;
    const target = byHash
      .get(hash >>> 0)
      ?.find((t) => t.bytes.length === length && data.compare(t.bytes, 0, length, wordAt, wordAt + length) === 0);
    if (!target) {
      const withDigit = digit || (!ascii && hasDigit(data.toString('utf8', wordAt, wordAt + length)));
      entries.push(runOut + (wordAt - run), length, count, withDigit);
      reader.at = end;
      continue;
    }
    out.bytes(data, run, start);
    target.seen = true;
    writeMerged(out, entries, target, data, reader, count);
    reader.at = end;
    run = end;
    runOut = out.mark();
  }
  out.bytes(data, run, data.length);
  for (const target of targets) if (!target.seen) writeMerged(out, entries, target, data, reader, 0);
  const written = out.finish();
  return {
    data: written,
    words: entries.vocabulary(written),
    counts: new Map(targets.map((t) => [t.word, t.count])),
  };
}

interface Target {
  readonly word: string;
  readonly bytes: Buffer;
  readonly change: PostingsChange;
  seen: boolean;
  /** Positions written for it. */
  count: number;
}

/** One entry: `count` stored positions read at `reader` merged with the target's change; nothing when none is left. */
function writeMerged(
  out: VarintWriter,
  entries: Entries,
  target: Target,
  data: Uint8Array,
  reader: { at: number },
  count: number,
): void {
  const entryAt = out.mark();
  const word = target.bytes;
  out.varint(word.length);
  const wordAt = out.mark();
  out.bytes(word);
  // Fixed 5-byte varints for the count and the byte length, written once known.
  const countAt = out.reserve();
  const lengthAt = out.reserve();
  const { removed, added } = target.change;
  let written = 0;
  let previous = 0;
  let r = 0;
  let a = 0;
  let value = 0;
  for (let i = 0; i < count; i += 1) {
    value += readVarint(data, reader);
    while (a < added.length && added[a]! < value) {
      out.varint(added[a]! - previous);
      previous = added[a++]!;
      written += 1;
    }
    while (r < removed.length && removed[r]! < value) r += 1;
    const isAdded = a < added.length && added[a] === value;
    if (isAdded) a += 1;
    if (isAdded || !(r < removed.length && removed[r] === value)) {
      out.varint(value - previous);
      previous = value;
      written += 1;
    }
  }
  while (a < added.length) {
    out.varint(added[a]! - previous);
    previous = added[a++]!;
    written += 1;
  }
  target.count = written;
  if (written === 0) {
    out.rewind(entryAt);
    return;
  }
  out.patchVarint(countAt, written);
  out.patchLength(lengthAt);
  entries.push(wordAt, word.length, written, hasDigit(target.word));
}

/** The entries of a bucket being written, for its vocabulary. */
class Entries {
  #at: number[] = [];
  #length: number[] = [];
  #count: number[] = [];
  #digit: boolean[] = [];

  push(at: number, length: number, count: number, digit: boolean): void {
    this.#at.push(at);
    this.#length.push(length);
    this.#count.push(count);
    this.#digit.push(digit);
  }

  /** `bucketVocabulary` of the bucket written (`data`): words without a digit first, each part in bucket order. */
  vocabulary(data: Buffer): Buffer {
    const n = this.#at.length;
    let letters = 0;
    let textBytes = 0;
    for (let i = 0; i < n; i += 1) {
      if (!this.#digit[i]) letters += 1;
      textBytes += this.#length[i]!;
    }
    const digits = n - letters;
    const out = new VarintWriter(20 + 5 * n + textBytes + n);
    out.varint(letters);
    out.varint(digits);
    for (const part of [false, true])
      for (let i = 0; i < n; i += 1) if (this.#digit[i] === part) out.varint(this.#count[i]!);
    let first = 0;
    for (let i = 0; i < n; i += 1) if (!this.#digit[i]) first += this.#length[i]!;
    out.varint(letters === 0 ? 0 : first + letters - 1);
    let any = false;
    for (const part of [false, true])
      for (let i = 0; i < n; i += 1)
        if (this.#digit[i] === part) {
          if (any) out.byte(10);
          out.bytes(data, this.#at[i], this.#at[i]! + this.#length[i]!);
          any = true;
        }
    return out.finish();
  }
}
