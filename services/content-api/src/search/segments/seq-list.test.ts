import { describe, expect, it } from 'vitest';
import { parseSeqList, shared } from './seq-list.js';

describe('parseSeqList', () => {
  it('reads rowids beyond 2^32 and an empty list', () => {
    expect([...parseSeqList('3,4294967297,8589934592')]).toEqual([3, 4294967297, 8589934592]);
    expect(parseSeqList('')).toHaveLength(0);
  });

  it('writes over a SharedArrayBuffer when asked, which `shared` then keeps', () => {
    const list = parseSeqList('3,4294967297', 'shared');
    expect(list.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...list]).toEqual([3, 4294967297]);
    expect(shared(list)).toBe(list);
    expect(parseSeqList('', 'shared').buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(parseSeqList('7').buffer).not.toBeInstanceOf(SharedArrayBuffer);
  });
});

describe('shared', () => {
  it('copies a list over a SharedArrayBuffer once and keeps one that is already over one', () => {
    const whole = Float64Array.from([1, 2, 4294967297, 5]);
    const view = whole.subarray(1, 3);
    const copy = shared(view);
    expect(copy.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...copy]).toEqual([2, 4294967297]);
    expect(shared(copy)).toBe(copy);
    const classes = shared(Uint8Array.from([0, 3, 1]));
    expect(classes).toBeInstanceOf(Uint8Array);
    expect(classes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...classes]).toEqual([0, 3, 1]);
    expect(shared(new Float64Array(0))).toHaveLength(0);
  });
});
