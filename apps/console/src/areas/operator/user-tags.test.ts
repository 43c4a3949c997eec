import { describe, expect, it } from 'vitest';
import { formatTags, parseTags } from './user-tags.js';

describe('parseTags', () => {
  it('reads all in any case', () => {
    expect(parseTags(' ALL ')).toEqual({ tags: 'all' });
  });
  it('splits on commas and spaces and drops repeats', () => {
    expect(parseTags('op, dev  op,,site-1')).toEqual({ tags: ['op', 'dev', 'site-1'] });
    expect(parseTags('   ')).toEqual({ tags: [] });
  });
  it('names a tag the API would refuse, and too many tags', () => {
    expect(parseTags('op, d*v')).toEqual({ problem: 'The tag d*v is not 1 to 64 letters, digits, _ or -.' });
    expect(parseTags('t'.repeat(65))).toHaveProperty('problem');
    expect(parseTags(Array.from({ length: 101 }, (_, i) => `t${i}`).join(','))).toEqual({
      problem: 'At most 100 tags per user.',
    });
  });
});

describe('formatTags', () => {
  it('round-trips through parseTags', () => {
    expect(formatTags('all')).toBe('all');
    expect(formatTags(['op', 'dev'])).toBe('op, dev');
    expect(parseTags(formatTags(['op', 'dev']))).toEqual({ tags: ['op', 'dev'] });
  });
});
