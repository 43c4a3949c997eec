import { ErlangDistError } from './errors.js';

/** One unit out of a `FrameDecoder`: a zero-length frame after the handshake is a tick. */
export type Frame = { readonly type: 'tick' } | { readonly type: 'data'; readonly payload: Uint8Array };

export interface FrameDecoderOptions {
  /** Length prefix size: 2 during the handshake, 4 afterwards (switch with `useHeaderBytes`). */
  readonly headerBytes: 2 | 4;
  /** Largest payload accepted (ED_ERR_FRAME_TOO_LARGE beyond); default 64 MiB. */
  readonly maxFrameBytes?: number;
}

export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024; // 64 MiB

/** The 4-byte zero-length frame that is a distribution tick. */
export const TICK_FRAME: Uint8Array = new Uint8Array(4);

/**
 * Splits a byte stream into length-prefixed frames, whatever the chunking: `push` bytes as they
 * arrive, then `pull` until it returns undefined. Payloads are views into the pushed chunks when a
 * frame lies in one chunk, copies otherwise. With 4-byte headers a zero-length frame is a tick;
 * with 2-byte headers (handshake) it is an empty data frame. A declared length above
 * `maxFrameBytes` throws ED_ERR_FRAME_TOO_LARGE with the stream offset of its header, before
 * anything is allocated.
 */
export class FrameDecoder {
  #headerBytes: 2 | 4;
  readonly #maxFrameBytes: number;
  readonly #chunks: Uint8Array[] = [];
  #head = 0; // offset into #chunks[0]
  #buffered = 0;
  #streamOffset = 0; // bytes consumed so far, for error offsets

  constructor(options: FrameDecoderOptions) {
    this.#headerBytes = options.headerBytes;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  /** Bytes pushed and not yet returned as frames. */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** Switches the length prefix size for the frames not yet pulled (after the handshake: 4). */
  useHeaderBytes(headerBytes: 2 | 4): void {
    this.#headerBytes = headerBytes;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
  }

  /**
   * Copies the bytes still buffered (a partial frame) out of the pushed chunks, so that the caller
   * may overwrite the memory of those chunks afterwards (a socket read buffer reused for every
   * read). Call it after pulling every complete frame; payloads already pulled stay views of the
   * old memory and must be used before it is overwritten.
   */
  detach(): void {
    if (this.#buffered === 0) {
      this.#chunks.length = 0;
      this.#head = 0;
      return;
    }
    const owned = new Uint8Array(this.#buffered);
    let filled = 0;
    for (const [i, chunk] of this.#chunks.entries()) {
      const from = i === 0 ? this.#head : 0;
      owned.set(chunk.subarray(from), filled);
      filled += chunk.length - from;
    }
    this.#chunks.length = 0;
    this.#chunks.push(owned);
    this.#head = 0;
  }

  /** The next complete frame, or undefined until more bytes are pushed. */
  pull(): Frame | undefined {
    const h = this.#headerBytes;
    if (this.#buffered < h) return undefined;
    let length = 0;
    for (let i = 0; i < h; i++) length = length * 256 + this.#peek(i);
    if (length > this.#maxFrameBytes) {
      throw new ErlangDistError('ED_ERR_FRAME_TOO_LARGE', {
        offset: this.#streamOffset,
        detail: `${length} bytes, limit ${this.#maxFrameBytes}`,
        details: { length, limit: this.#maxFrameBytes },
      });
    }
    if (this.#buffered < h + length) return undefined;
    this.#consume(h);
    if (length === 0 && h === 4) return { type: 'tick' };
    return { type: 'data', payload: this.#consume(length) };
  }

  #peek(i: number): number {
    let index = this.#head + i;
    for (const chunk of this.#chunks) {
      const byte = chunk[index]; // undefined exactly when index is past this chunk
      if (byte !== undefined) return byte;
      index -= chunk.length;
    }
    return 0; // unreachable: callers check #buffered first
  }

  #consume(n: number): Uint8Array {
    this.#buffered -= n;
    this.#streamOffset += n;
    const first = this.#chunks[0];
    if (first && first.length - this.#head >= n) {
      const out = first.subarray(this.#head, this.#head + n);
      this.#advance(n);
      return out;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.#chunks[0]!;
      const take = Math.min(chunk.length - this.#head, n - filled);
      out.set(chunk.subarray(this.#head, this.#head + take), filled);
      filled += take;
      this.#advance(take);
    }
    return out;
  }

  #advance(n: number): void {
    this.#head += n;
    if (this.#head === this.#chunks[0]?.length) {
      this.#chunks.shift();
      this.#head = 0;
    }
  }
}

/**
 * Prefixes `payload` with its length in `headerBytes` bytes. Throws ED_ERR_FRAME_TOO_LARGE when the
 * payload does not fit the prefix (65535 bytes with 2).
 */
export function encodeFrame(payload: Uint8Array, headerBytes: 2 | 4): Uint8Array {
  const max = headerBytes === 2 ? 0xffff : 0xffff_ffff;
  if (payload.length > max) {
    throw new ErlangDistError('ED_ERR_FRAME_TOO_LARGE', {
      detail: `${payload.length} bytes, a ${headerBytes}-byte prefix holds ${max}`,
    });
  }
  const out = new Uint8Array(headerBytes + payload.length);
  const view = new DataView(out.buffer);
  if (headerBytes === 2) view.setUint16(0, payload.length);
  else view.setUint32(0, payload.length);
  out.set(payload, headerBytes);
  return out;
}
