import { describe, expect, it } from 'vitest';
import { Text } from '@codemirror/state';
import { offsetOf, problemRange } from './problem-positions.js';

const doc = Text.of(['templateId: a', '  datapointSetType: grid', '']);

describe('problem positions', () => {
  it('places a 1-based line and column and underlines the token there', () => {
    const range = problemRange(doc, 2, 21);
    expect(doc.sliceString(range.from, range.to)).toBe('grid');
  });

  it('clamps unknown or out-of-range positions into the document', () => {
    expect(offsetOf(doc, 0, 0)).toBe(0);
    expect(offsetOf(doc, 99, 99)).toBe(doc.length);
    const range = problemRange(doc, 1, 0);
    expect(doc.sliceString(range.from, range.to)).toBe('templateId');
  });
});
