import { describe, expect, it } from 'vitest';
import { referencedSymbols } from './logic-symbols.js';

describe('referencedSymbols', () => {
  it('reads identifiers combined with single and double operators', () => {
    expect(referencedSymbols('evalID1 & evalID2 | !x', [])).toEqual(['evalID1', 'evalID2', 'x']);
    expect(referencedSymbols('(a && b) || c', [])).toEqual(['a', 'b', 'c']);
  });

  it('skips keywords, string contents, numbers and property names after a dot', () => {
    expect(referencedSymbols("a AND true or 'b c' == \"d\" && e.length > 3", [])).toEqual(['a', 'e']);
  });

  it('matches declared symbols that are not identifiers as whole substrings', () => {
    expect(referencedSymbols('link-down & cpu', ['link-down', 'cpu'])).toEqual(['link-down', 'cpu']);
  });
});
