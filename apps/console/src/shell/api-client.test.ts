import { describe, expect, it } from 'vitest';
import { problemMessage, searchOf } from './api-client.js';

describe('searchOf', () => {
  it('writes the parameters in order as URLSearchParams does, leaving out undefined and null', () => {
    expect(searchOf({ q: 'Ping Check', latest: true, limit: 20, originType: undefined, offset: null })).toBe(
      'q=Ping+Check&latest=true&limit=20',
    );
    expect(searchOf({})).toBe('');
  });
  it('refuses a value it cannot write as one parameter', () => {
    expect(() => searchOf({ ids: ['a', 'b'] })).toThrow(TypeError);
  });
});

describe('problemMessage', () => {
  it("takes a problem's detail, else its title", () => {
    expect(problemMessage({ title: 'Not Found', detail: 'No such device d1' })).toBe('No such device d1');
    expect(problemMessage({ title: 'Not Found', detail: null })).toBe('Not Found');
    expect(problemMessage({ detail: '' })).toBe('');
  });
  it('has none for a body that is not a problem', () => {
    expect(problemMessage('<html>Bad Gateway</html>')).toBeUndefined();
    expect(problemMessage(undefined)).toBeUndefined();
    expect(problemMessage(null)).toBeUndefined();
    expect(problemMessage({ detail: 7 })).toBeUndefined();
  });
});
