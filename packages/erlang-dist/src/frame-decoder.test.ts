import { thrownBy } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, TICK_FRAME, type Frame } from './frame-decoder.js';

function drain(d: FrameDecoder): Frame[] {
  const out: Frame[] = [];
  for (let f = d.pull(); f; f = d.pull()) out.push(f);
  return out;
}

describe('frame decoder', () => {
  it('returns nothing until a frame is complete, then the payload', () => {
    const d = new FrameDecoder({ headerBytes: 4 });
    d.push(Uint8Array.of(0, 0, 0));
    expect(d.pull()).toBeUndefined();
    d.push(Uint8Array.of(2, 7));
    expect(d.pull()).toBeUndefined();
    d.push(Uint8Array.of(8));
    expect(d.pull()).toEqual({ type: 'data', payload: Uint8Array.of(7, 8) });
    expect(d.bufferedBytes).toBe(0);
  });

  it('reads ticks between frames pushed byte by byte', () => {
    const stream = new Uint8Array([...TICK_FRAME, ...encodeFrame(Uint8Array.of(1, 2, 3), 4), ...TICK_FRAME]);
    const d = new FrameDecoder({ headerBytes: 4 });
    const frames: Frame[] = [];
    for (const b of stream) {
      d.push(Uint8Array.of(b));
      frames.push(...drain(d));
    }
    expect(frames).toEqual([{ type: 'tick' }, { type: 'data', payload: Uint8Array.of(1, 2, 3) }, { type: 'tick' }]);
  });

  it('switches from 2-byte to 4-byte headers for bytes already buffered', () => {
    const d = new FrameDecoder({ headerBytes: 2 });
    d.push(new Uint8Array([...encodeFrame(Uint8Array.of(97), 2), ...encodeFrame(Uint8Array.of(5), 4)]));
    expect(d.pull()).toEqual({ type: 'data', payload: Uint8Array.of(97) });
    d.useHeaderBytes(4);
    expect(d.pull()).toEqual({ type: 'data', payload: Uint8Array.of(5) });
  });

  it('treats a zero-length frame during the handshake as empty data, not a tick', () => {
    const d = new FrameDecoder({ headerBytes: 2 });
    d.push(Uint8Array.of(0, 0));
    expect(d.pull()).toEqual({ type: 'data', payload: new Uint8Array(0) });
  });

  it('throws ED_ERR_FRAME_TOO_LARGE with the header offset before the frame arrives', () => {
    const d = new FrameDecoder({ headerBytes: 4, maxFrameBytes: 10 });
    d.push(new Uint8Array([...TICK_FRAME, 0xff, 0xff, 0xff, 0xff]));
    expect(d.pull()).toEqual({ type: 'tick' });
    expect(thrownBy(() => d.pull())).toMatchObject({ code: 'ED_ERR_FRAME_TOO_LARGE', offset: 4 });
  });

  it('keeps partial frames intact across detach when one read buffer is reused for every chunk', () => {
    const frames = [
      Uint8Array.of(1, 2, 3, 4, 5),
      new Uint8Array(0),
      Uint8Array.of(9),
      Uint8Array.from({ length: 40 }, (_, i) => i),
    ];
    const stream = new Uint8Array(frames.flatMap((p) => [...(p.length === 0 ? TICK_FRAME : encodeFrame(p, 4))]));
    const expected = frames.map((p) => (p.length === 0 ? { type: 'tick' } : { type: 'data', payload: p }));
    for (const chunkSize of [1, 2, 3, 5, 7, 16, stream.length]) {
      const readBuffer = new Uint8Array(chunkSize);
      const d = new FrameDecoder({ headerBytes: 4 });
      const seen: unknown[] = [];
      for (let at = 0; at < stream.length; at += chunkSize) {
        const piece = stream.subarray(at, at + chunkSize);
        readBuffer.set(piece);
        d.push(readBuffer.subarray(0, piece.length));
        // Payloads are views of the read buffer: copy them before it is overwritten, as a caller would use them.
        for (const f of drain(d)) seen.push(f.type === 'data' ? { type: 'data', payload: f.payload.slice() } : f);
        d.detach();
        readBuffer.fill(0xee); // the next read overwrites the buffer
      }
      expect(seen, `chunks of ${chunkSize}`).toEqual(expected);
      expect(d.bufferedBytes).toBe(0);
    }
  });

  it('refuses to frame more than 65535 bytes with a 2-byte header', () => {
    expect(thrownBy(() => encodeFrame(new Uint8Array(70_000), 2))).toMatchObject({ code: 'ED_ERR_FRAME_TOO_LARGE' });
    expect(encodeFrame(new Uint8Array(70_000), 4)).toHaveLength(70_004);
  });
});
