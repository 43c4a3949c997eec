import { describe, expect, it } from 'vitest';
import { bookmarkProblem, isConsolePath } from './bookmark.js';

describe('bookmarkProblem', () => {
  it('passes a title and a url', () => {
    expect(bookmarkProblem('Ghost', '/nodes/1')).toBeUndefined();
  });
  it('names the first missing or too long field', () => {
    expect(bookmarkProblem(' ', '/nodes/1')).toBe('Enter a title.');
    expect(bookmarkProblem('t'.repeat(256), '/x')).toBe('The title is longer than 255 characters.');
    expect(bookmarkProblem('Ghost', '')).toBe('Enter a URL.');
    expect(bookmarkProblem('Ghost', `/${'u'.repeat(2048)}`)).toBe('The URL is longer than 2048 characters.');
  });
});

describe('isConsolePath', () => {
  it('accepts same-origin paths only', () => {
    expect(isConsolePath('/alarms')).toBe(true);
    expect(isConsolePath('//evil.example/x')).toBe(false);
    expect(isConsolePath('https://example.com/')).toBe(false);
    expect(isConsolePath('javascript:alert(1)')).toBe(false);
  });
});
