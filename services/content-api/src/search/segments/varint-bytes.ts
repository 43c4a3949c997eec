/**
 * The byte coding of postings buckets and their vocabularies: unsigned varints (7 bits a byte,
 * low bits first), words hashed by FNV-1a, and a growing buffer to write them into.
 */

/** The varint at `reader.at`, moving `reader.at` past it. */
export function readVarint(bytes: Uint8Array, reader: { at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[reader.at++];
    if (byte === undefined) throw new RangeError('varint runs past the end of the bucket');
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
}

/** FNV-1a over `bytes[from..to)`. */
export function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i += 1) {
    hash ^= bytes[i] ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A growing byte buffer with varints and reserved 5-byte varints written later. */
export class VarintWriter {
  #buffer: Buffer;
  #at = 0;

  /** `size`: the bytes to start with (a good guess saves growing). */
  constructor(size = 1024) {
    this.#buffer = Buffer.allocUnsafe(Math.max(16, size));
  }

  #room(n: number): void {
    if (this.#at + n <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#at + n));
    this.#buffer.copy(grown, 0, 0, this.#at);
    this.#buffer = grown;
  }

  byte(value: number): void {
    this.#room(1);
    this.#buffer[this.#at++] = value;
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

  /** The UTF-8 byte length of `text` as a varint, then its bytes. */
  utf8(text: string): void {
    const length = Buffer.byteLength(text, 'utf8');
    this.varint(length);
    this.#room(length);
    this.#buffer.write(text, this.#at, 'utf8');
    this.#at += length;
  }

  /** `bytes[start..end)`, as they are. */
  bytes(bytes: Uint8Array, start = 0, end = bytes.length): void {
    this.#room(end - start);
    this.#buffer.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), this.#at);
    this.#at += end - start;
  }

  /** Reserves a fixed 5-byte varint for a value written later (`patchVarint`, `patchLength`). */
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

  /** The bytes written, in a buffer of their own size. */
  finish(): Buffer {
    return Buffer.from(this.#buffer.subarray(0, this.#at));
  }
}
