import { describe, expect, it } from 'vitest';
import { formatOfContentType, negotiate } from './media-types.js';

describe('formatOfContentType', () => {
  it.each([
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/YAML', 'yaml'],
    ['text/yaml', 'yaml'],
    ['application/x-yaml; charset=utf-8', 'yaml'],
    ['text/plain', undefined],
    [undefined, undefined],
  ])('maps %s to %s', (contentType, format) => {
    expect(formatOfContentType(contentType)).toBe(format);
  });
});

describe('negotiate', () => {
  const offered = ['application/json', 'application/yaml'];
  it('gives the first offer without an Accept header or for */*', () => {
    expect(negotiate(undefined, offered)).toBe('application/json');
    expect(negotiate('*/*', offered)).toBe('application/json');
  });

  it('honours an exact media type', () => {
    expect(negotiate('application/yaml', offered)).toBe('application/yaml');
  });

  it('prefers higher q, then more specific ranges', () => {
    expect(negotiate('application/json;q=0.5, application/yaml', offered)).toBe('application/yaml');
    expect(negotiate('application/*;q=0.9, application/yaml;q=0.9', offered)).toBe('application/yaml');
  });

  it('returns undefined when nothing offered is acceptable, and ignores q=0', () => {
    expect(negotiate('text/html', offered)).toBeUndefined();
    expect(negotiate('application/json;q=0', ['application/json'])).toBeUndefined();
    expect(negotiate('application/json;q=0, */*', offered)).toBe('application/yaml');
  });
});
