import { describe, expect, it } from 'vitest';
import { fromJsonPointer, toJsonPointer } from './problem.js';

describe('JSON Pointer paths', () => {
  it('escapes ~ and / in keys and round-trips', () => {
    const path = ['datapointSets', 0, 'a/b', 'c~d'];
    const pointer = toJsonPointer(path);
    expect(pointer).toBe('/datapointSets/0/a~1b/c~0d');
    expect(fromJsonPointer(pointer)).toEqual(['datapointSets', '0', 'a/b', 'c~d']);
  });
  it('treats the empty pointer as the root and rejects a pointer without a leading slash', () => {
    expect(fromJsonPointer('')).toEqual([]);
    expect(() => fromJsonPointer('a/b')).toThrow(TypeError);
  });
});
