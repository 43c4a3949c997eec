import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The WebSocket pass WombatOAM's published load-test client computes itself: the MD5 hex of the
 * username followed by `salt`. Weak by design (anyone who knows the salt can compute any user's
 * pass, forever), so accepted only when the `wsMd5Pass` setting turns it on.
 */
export function md5WsPass(username: string, salt: string): string {
  return createHash('md5')
    .update(username + salt, 'utf8')
    .digest('hex');
}

/** True when `pass` is `md5WsPass(username, salt)`; compares in constant time. */
export function md5WsPassMatches(username: string, salt: string, pass: string): boolean {
  const expected = Buffer.from(md5WsPass(username, salt), 'utf8');
  const given = Buffer.from(pass, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
