import { describe, expect, it } from 'vitest';
import { apiLanguage } from './language-codes.js';

describe('apiLanguage', () => {
  it('maps both ISO 639-2 forms and the API code itself to the API code', () => {
    expect(apiLanguage('deu')).toBe('de');
    expect(apiLanguage('ger')).toBe('de');
    expect(apiLanguage('de')).toBe('de');
  });

  it('ignores case and surrounding space', () => {
    expect(apiLanguage(' ENG ')).toBe('en');
  });

  it('passes an unknown code on as written, in lower case', () => {
    expect(apiLanguage('XYZ')).toBe('xyz');
  });
});
