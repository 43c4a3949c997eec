import { describe, expect, it } from 'vitest';
import { arrayIndexOf } from './path-segment.js';

describe('arrayIndexOf', () => {
  it.each([
    [0, 0],
    [7, 7],
    ['0', 0],
    ['12', 12],
    ['012', -1],
    ['1.0', -1],
    ['-1', -1],
    [-1, -1],
    [1.5, -1],
    ['', -1],
    ['x', -1],
    ['99999999999999999999', -1],
  ] as const)('reads %j as %i', (segment, index) => {
    expect(arrayIndexOf(segment)).toBe(index);
  });
});
