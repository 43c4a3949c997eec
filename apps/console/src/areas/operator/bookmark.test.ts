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

  it.each(['/', '/nodes/ghost@host', '/alarms?severity=major&range=24h', '/nodes/1#history', '/templates/My%20Switch'])(
    'accepts the clean path %s',
    (url) => expect(isConsolePath(url)).toBe(true),
  );

  it.each([
    '/\\evil.example/x',
    '/\\/evil.example/x',
    '\\\\evil.example/x',
    '/%5Cevil.example/x',
    '/%5cevil.example/x',
    '/%2F%2Fevil.example/x',
    '/%2fevil.example',
    '/\t/evil.example/x',
    '/\n/evil.example/x',
    '/\r//evil.example',
    ' //evil.example',
    '/ /evil.example',
    '/\u0000/evil.example',
    '/%00/x',
    '/\u00a0/evil.example',
    '/\u200b/evil.example',
    '/\u2028/evil.example',
    '/\ufeff/evil.example',
    '/../../evil',
    '/nodes/%2e%2e/%2e%2e/x',
    '/./x',
    'evil.example/x',
    'http:/evil.example/x',
    'https:evil.example',
    'javascript:alert(1)',
    'data:text/html,x',
    '',
  ])('refuses %j, which is not a clean path on this origin', (url) => expect(isConsolePath(url)).toBe(false));

  it('refuses everything a browser would resolve to another origin', () => {
    // The finding of issue 23: `/\evil.example/x` resolves to https://evil.example/x.
    expect(new URL('/\\evil.example/x', 'https://console.example').origin).toBe('https://evil.example');
    expect(isConsolePath('/\\evil.example/x')).toBe(false);
  });
});
