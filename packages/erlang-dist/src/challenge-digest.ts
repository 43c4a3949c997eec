import { createHash, timingSafeEqual } from 'node:crypto';
import { ErlangDistError } from './errors.js';

/**
 * The handshake digest `md5(cookie ++ decimal(challenge))`: the cookie as Latin-1 bytes and the
 * challenge as an unsigned 32-bit decimal without padding. Throws ED_ERR_INVALID_ARGUMENT for a
 * challenge outside 0..2^32-1 or a cookie with characters beyond Latin-1 (an Erlang cookie atom
 * cannot be hashed then either).
 */
export function challengeDigest(cookie: string, challenge: number): Uint8Array {
  if (!Number.isInteger(challenge) || challenge < 0 || challenge > 0xffff_ffff) {
    throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', {
      detail: `challenge ${challenge} is not an unsigned 32-bit integer`,
    });
  }
  for (let i = 0; i < cookie.length; i++) {
    if (cookie.charCodeAt(i) > 0xff)
      throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', { detail: 'cookie has characters beyond Latin-1' });
  }
  const hash = createHash('md5');
  hash.update(Buffer.from(cookie, 'latin1'));
  hash.update(String(challenge), 'latin1');
  return new Uint8Array(hash.digest());
}

/** Compares two digests in time independent of where they differ. */
export function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
