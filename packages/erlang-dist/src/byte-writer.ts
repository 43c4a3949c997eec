/**
 * A growable big-endian byte buffer. Callers must pass in-range values (the term encoder checks
 * ranges before writing); `finish` returns a view of the written bytes.
 */
export class ByteWriter {
  #buf: Uint8Array;
  #view: DataView;
  length = 0;

  constructor(initialCapacity = 256) {
    this.#buf = new Uint8Array(initialCapacity);
    this.#view = new DataView(this.#buf.buffer);
  }

  #ensure(n: number): void {
    const needed = this.length + n;
    if (needed <= this.#buf.length) return;
    let cap = this.#buf.length * 2;
    while (cap < needed) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.#buf.subarray(0, this.length));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.#ensure(1);
    this.#buf[this.length++] = v;
  }

  u16(v: number): void {
    this.#ensure(2);
    this.#view.setUint16(this.length, v);
    this.length += 2;
  }

  u32(v: number): void {
    this.#ensure(4);
    this.#view.setUint32(this.length, v);
    this.length += 4;
  }

  i32(v: number): void {
    this.#ensure(4);
    this.#view.setInt32(this.length, v);
    this.length += 4;
  }

  u64(v: bigint): void {
    this.#ensure(8);
    this.#view.setBigUint64(this.length, v);
    this.length += 8;
  }

  f64(v: number): void {
    this.#ensure(8);
    this.#view.setFloat64(this.length, v);
    this.length += 8;
  }

  bytes(b: Uint8Array): void {
    this.#ensure(b.length);
    this.#buf.set(b, this.length);
    this.length += b.length;
  }

  /** Appends `src[start, end)` (a byte loop: cheaper than a subarray view for short ranges). */
  copy(src: Uint8Array, start: number, end: number): void {
    this.#ensure(end - start);
    const buf = this.#buf;
    let at = this.length;
    for (let i = start; i < end; i++) buf[at++] = src[i]!;
    this.length = at;
  }

  /** Writes ASCII/Latin-1 text, one byte per UTF-16 unit (callers check the range). */
  latin1(s: string): void {
    this.#ensure(s.length);
    for (let i = 0; i < s.length; i++) this.#buf[this.length++] = s.charCodeAt(i);
  }

  /** Overwrites 4 bytes at `at` (length fields written after their content). */
  patchU32(at: number, v: number): void {
    this.#view.setUint32(at, v);
  }

  patchU16(at: number, v: number): void {
    this.#view.setUint16(at, v);
  }

  /** Forgets what was written (the capacity stays), so one writer can serve many messages. */
  reset(): void {
    this.length = 0;
  }

  finish(): Uint8Array {
    return this.#buf.subarray(0, this.length);
  }
}
