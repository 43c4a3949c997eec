import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, utf8ByteLength } from './utf8-check.js';

describe('firstInvalidUtf8', () => {
  it.each([
    ['ASCII', [0x61, 0x62], undefined],
    ['two-, three- and four-byte characters', [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], undefined],
    ['a stray continuation byte', [0x61, 0x80], { offset: 1, reason: 'bad-lead' }],
    ['an overlong two-byte form', [0xc0, 0xaf], { offset: 0, reason: 'bad-lead' }],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf], { offset: 0, reason: 'bad-continuation' }],
    ['a UTF-16 surrogate', [0x61, 0xed, 0xa0, 0x80], { offset: 1, reason: 'bad-continuation' }],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], { offset: 0, reason: 'bad-continuation' }],
    ['a lead byte followed by ASCII', [0xe2, 0x41, 0x42], { offset: 0, reason: 'bad-continuation' }],
    ['a character cut at the end', [0x61, 0xf0, 0x9f, 0x98], { offset: 1, reason: 'truncated' }],
    ['a byte that never occurs', [0xff], { offset: 0, reason: 'bad-lead' }],
  ])('classifies %s', (_name, bytes, fault) => {
    expect(firstInvalidUtf8(new Uint8Array(bytes))).toEqual(fault);
    // The fatal decoder must agree on validity.
    const decodes = (() => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
        return true;
      } catch {
        return false;
      }
    })();
    expect(decodes).toBe(fault === undefined);
  });
});

describe('utf8ByteLength', () => {
  it('agrees with TextEncoder, counting a lone surrogate as U+FFFD', () => {
    for (const text of ['', 'abc', 'é€😀', 'a\uD800b', '\uDC00']) {
      expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).byteLength);
    }
  });
});
