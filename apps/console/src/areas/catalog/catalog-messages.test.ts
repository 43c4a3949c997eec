import { describe, expect, it } from 'vitest';
import { searchFailureMessage } from './catalog-messages.js';

describe("the content API's search refusals in people's words", () => {
  it('says to choose a currency instead of quoting the JSON pointer', () => {
    const raw = 'Query parameter currency is not valid: #/currency is required when sorting by price';
    expect(searchFailureMessage(400, raw)).toBe(
      'Prices compare only within one currency: choose a currency under Currency to sort or filter by price.',
    );
  });

  it('names the choice to change for other parameters, and keeps other answers', () => {
    expect(searchFailureMessage(400, 'Query parameter sort is not valid: #/sort must match')).toMatch(/Sort by/);
    expect(searchFailureMessage(400, 'Query parameter limit is not valid: #/limit')).not.toMatch(/#\//);
    expect(searchFailureMessage(500, 'Unexpected error')).toBe('Unexpected error');
  });
});
