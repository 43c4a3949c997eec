import { describe, expect, it } from 'vitest';
import { blockHeight, blocksToRender } from './block-window.js';

describe('blocksToRender', () => {
  it('renders the blocks near the viewport, and the first one before any is known', () => {
    expect(blocksToRender(new Set([3, 2]), undefined, 20)).toEqual([2, 3]);
    expect(blocksToRender(new Set(), undefined, 20)).toEqual([0]);
  });
  it('keeps the focused block and its neighbours, within the table', () => {
    expect(blocksToRender(new Set([0]), 7, 20)).toEqual([0, 6, 7, 8]);
    expect(blocksToRender(new Set([19]), 19, 20)).toEqual([18, 19]);
    expect(blocksToRender(new Set([25]), undefined, 20)).toEqual([]);
  });
});

describe('blockHeight', () => {
  it('uses the measured height of a block with the same rows, else the mean row height', () => {
    expect(blockHeight(50, { px: 2400, rows: 50 }, 40, 48)).toBe(2400);
    expect(blockHeight(5, { px: 2400, rows: 50 }, 40, 48)).toBe(200);
    expect(blockHeight(10, undefined, undefined, 48)).toBe(480);
  });
});
