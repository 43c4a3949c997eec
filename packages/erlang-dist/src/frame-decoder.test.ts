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
    expect(() => d.pull()).toThrow(expect.objectContaining({ code: 'ED_ERR_FRAME_TOO_LARGE', offset: 4 }));
  });

  it('refuses to frame more than 65535 bytes with a 2-byte header', () => {
    expect(() => encodeFrame(new Uint8Array(70_000), 2)).toThrow(expect.objectContaining({ code: 'ED_ERR_FRAME_TOO_LARGE' }));
    expect(encodeFrame(new Uint8Array(70_000), 4)).toHaveLength(70_004);
  });
});
