import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message.js';

describe('errorMessage', () => {
  it('gives the message of an Error and its subclasses', () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage(new TypeError('not a function'))).toBe('not a function');
  });

  it('gives a thrown string as it is, and other values as JSON', () => {
    expect(errorMessage('no route')).toBe('no route');
    expect(errorMessage({ code: 'ECONNRESET' })).toBe('{"code":"ECONNRESET"}');
    expect(errorMessage(42)).toBe('42');
  });

  it('falls back to String() where JSON shows nothing or cannot be made', () => {
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage(Symbol('gone'))).toBe('Symbol(gone)');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(errorMessage(loop)).toBe('[object Object]');
    expect(errorMessage(10n)).toBe('10');
  });
});
