import { describe, expect, it } from 'vitest';
import { appliedCorrection, lastWord, sameQuery, suggestionOptions } from './suggestions.js';

const reply = (completions: [string, number][], corrections: [string, number][]) => ({
  completions: completions.map(([text, hits]) => ({ text, hits })),
  corrections: corrections.map(([text, hits]) => ({ text, hits })),
  _status: { timeMs: 1 },
});

describe('suggestions', () => {
  it('takes the last word folded as the search does', () => {
    expect(lastWord('Bosch Kühl-Box')).toBe('box');
    expect(lastWord('Kühl ')).toBe('kuhl');
    expect(lastWord(' ,')).toBe('');
  });

  it('lists completions, then corrections not already listed', () => {
    const options = suggestionOptions(
      reply(
        [['bohrer', 9]],
        [
          ['bohrer', 9],
          ['bohren', 2],
        ],
      ),
    );
    expect(options.map((o) => `${o.kind}:${o.text}`)).toEqual(['completion:bohrer', 'correction:bohren']);
  });

  it('names the correction only when the last word is not a word of the shops', () => {
    expect(appliedCorrection('Bosch bohrrer', reply([], [['Bosch bohrer', 12]]))).toBe('Bosch bohrer');
    expect(
      appliedCorrection(
        'Bohrer',
        reply(
          [
            ['bohrer', 12],
            ['bohrerset', 2],
          ],
          [['bohren', 3]],
        ),
      ),
    ).toBeUndefined();
    expect(appliedCorrection('bohrrer', reply([], []))).toBeUndefined();
  });

  it('sees the same query through spaces', () => {
    expect(sameQuery(' bosch  bohrer ', 'bosch bohrer')).toBe(true);
    expect(sameQuery('bosch bohrer', 'bosch bohre')).toBe(false);
  });
});
