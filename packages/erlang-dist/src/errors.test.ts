import { describe, expect, it } from 'vitest';
import { ErlangDistError, erlangDistErrors } from './errors.js';

describe('error catalogue', () => {
  it('pins every code (codes never change meaning)', () => {
    expect(Object.keys(erlangDistErrors).sort()).toMatchInlineSnapshot(`
      [
        "ED_ERR_ATOM_CACHE_REF",
        "ED_ERR_BAD_ATOM",
        "ED_ERR_BAD_CONTROL",
        "ED_ERR_BAD_COOKIE",
        "ED_ERR_BAD_DIGEST",
        "ED_ERR_BAD_VERSION",
        "ED_ERR_COMPRESSED",
        "ED_ERR_CONNECTION_CLOSED",
        "ED_ERR_DEPTH_EXCEEDED",
        "ED_ERR_FRAME_TOO_LARGE",
        "ED_ERR_HANDSHAKE_REFUSED",
        "ED_ERR_HANDSHAKE_STATE",
        "ED_ERR_INVALID_ARGUMENT",
        "ED_ERR_LENGTH_EXCEEDS_INPUT",
        "ED_ERR_MALFORMED",
        "ED_ERR_PEER_FLAGS",
        "ED_ERR_TRAILING_BYTES",
        "ED_ERR_TRUNCATED",
        "ED_ERR_UNENCODABLE",
        "ED_ERR_UNKNOWN_TAG",
      ]
    `);
  });

  it('carries code, offset and details and puts the offset into the message', () => {
    const e = new ErlangDistError('ED_ERR_TRUNCATED', { offset: 7, detail: 'tag', details: { needed: 1 } });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'ErlangDistError', code: 'ED_ERR_TRUNCATED', offset: 7, details: { needed: 1 } });
    expect(e.message).toBe('The input ended before a complete value at byte 7: tag');
  });
});
