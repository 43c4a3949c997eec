import { ErlangDistError } from './errors.js';

/**
 * A bounds-checked big-endian cursor over a byte array. Every read checks the remaining length
 * first and throws `ED_ERR_TRUNCATED` (with the offset of the read) instead of reading out of
 * range. `base` is added to reported offsets so that errors inside a sub-slice point into the
 * caller's whole input.
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly base: number;
  offset = 0;
  readonly #view: DataView;

  constructor(bytes: Uint8Array, base = 0) {
    this.bytes = bytes;
    this.base = base;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** Absolute offset (including `base`) of the next byte. */
  get position(): number {
    return this.base + this.offset;
  }

  need(n: number, what: string): void {
    if (n > this.bytes.length - this.offset) {
      throw new ErlangDistError('ED_ERR_TRUNCATED', {
        offset: this.position,
        detail: `${what} needs ${n} byte(s), ${this.remaining} left`,
        details: { needed: n, remaining: this.remaining, what },
      });
    }
  }

  /**
   * Checks a length or count declared by the input against the bytes that remain (each unit
   * taking at least `minBytesPerUnit`), so that a hostile length never drives an allocation.
   */
  checkDeclared(count: number, minBytesPerUnit: number, what: string, at: number): void {
    if (count * minBytesPerUnit > this.remaining) {
      throw new ErlangDistError('ED_ERR_LENGTH_EXCEEDS_INPUT', {
        offset: this.base + at,
        detail: `${what} declares ${count}, only ${this.remaining} byte(s) left`,
        details: { declared: count, remaining: this.remaining, what },
      });
    }
  }

  u8(what = 'u8'): number {
    this.need(1, what);
    return this.bytes[this.offset++]!;
  }

  u16(what = 'u16'): number {
    this.need(2, what);
    const v = this.#view.getUint16(this.offset);
    this.offset += 2;
    return v;
  }

  u32(what = 'u32'): number {
    this.need(4, what);
    const v = this.#view.getUint32(this.offset);
    this.offset += 4;
    return v;
  }

  i32(what = 'i32'): number {
    this.need(4, what);
    const v = this.#view.getInt32(this.offset);
    this.offset += 4;
    return v;
  }

  u64(what = 'u64'): bigint {
    this.need(8, what);
    const v = this.#view.getBigUint64(this.offset);
    this.offset += 8;
    return v;
  }

  f64(what = 'f64'): number {
    this.need(8, what);
    const v = this.#view.getFloat64(this.offset);
    this.offset += 8;
    return v;
  }

  /** The next `n` bytes as a view (no copy); callers that keep them copy with `slice`. */
  take(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** Throws `ED_ERR_TRAILING_BYTES` unless every byte was consumed. */
  end(what: string): void {
    if (this.remaining !== 0) {
      throw new ErlangDistError('ED_ERR_TRAILING_BYTES', {
        offset: this.position,
        detail: `${this.remaining} byte(s) after ${what}`,
        details: { remaining: this.remaining },
      });
    }
  }
}
