import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errorCode } from './error-code.js';

describe('errorCode', () => {
  it('gives the code of a Node.js system error', async () => {
    const error = await readFile('/nonexistent/triad-error-code').catch((reason: unknown) => reason);
    expect(errorCode(error)).toBe('ENOENT');
  });

  it('gives the string code of any object and nothing for a value without one', () => {
    expect(errorCode({ code: 'X_ERR_Y' })).toBe('X_ERR_Y');
    expect(errorCode({ code: 42 })).toBeUndefined();
    expect(errorCode(new Error('plain'))).toBeUndefined();
    expect(errorCode('ENOENT')).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
  });
});
