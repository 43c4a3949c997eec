import { describe, expect, it } from 'vitest';
import { LineIndex } from './line-index.js';

describe('LineIndex', () => {
  it('maps offsets to 1-based lines and columns across LF, CRLF and lone CR', () => {
    const text = 'ab\ncd\r\nef\rgh';
    const lines = new LineIndex(text);
    const expected = [
      [0, 1, 1],
      [2, 1, 3],
      [3, 2, 1],
      [5, 2, 3],
      [7, 3, 1],
      [9, 3, 3],
      [10, 4, 1],
      [12, 4, 3],
    ];
    for (const [offset, line, column] of expected)
      expect(lines.positionAt(offset as number)).toEqual({ line, column, offset });
  });

  it('clamps offsets outside the text', () => {
    const lines = new LineIndex('a\nb');
    expect(lines.positionAt(-5)).toEqual({ line: 1, column: 1, offset: 0 });
    expect(lines.positionAt(99)).toEqual({ line: 2, column: 2, offset: 3 });
  });

  it('counts columns in UTF-16 code units', () => {
    expect(new LineIndex('😀x').positionAt(2)).toEqual({ line: 1, column: 3, offset: 2 });
  });

  it('handles a text with many lines', () => {
    const text = 'x\n'.repeat(10_000);
    expect(new LineIndex(text).positionAt(text.length - 2)).toEqual({
      line: 10_000,
      column: 1,
      offset: text.length - 2,
    });
  });
});
