import * as crypto from 'node:crypto';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Remembers, per username, a keyed digest of the last password that passed scrypt, so that a
 * client sending Basic credentials on every call pays for scrypt once, not per request. The key
 * is random per process and never stored; entries are dropped when a password changes or a user
 * is deleted, and expire after `ttlMs`. The digest also covers the stored hash the password was
 * checked against, so a password changed by another process (`triad users set-password` on a
 * running service) stops matching at once.
 */
export class CredentialCache {
  readonly #key = randomBytes(32);
  readonly #keyText = this.#key.toString('hex');
  readonly #entries = new Map<string, { digest: Buffer; expires: number }>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(ttlMs = 300_000, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** True when `password` is the one last remembered for `username` against `passwordHash`, not expired. */
  matches(username: string, password: string, passwordHash: string): boolean {
    const entry = this.#entries.get(username);
    if (!entry) return false;
    if (entry.expires <= this.#now()) {
      this.#entries.delete(username);
      return false;
    }
    return timingSafeEqual(entry.digest, this.#digest(username, password, passwordHash));
  }

  /** Records that `password` verified against the stored `passwordHash`. */
  remember(username: string, password: string, passwordHash: string): void {
    if (this.#entries.size > 10_000) this.#entries.clear();
    this.#entries.set(username, {
      digest: this.#digest(username, password, passwordHash),
      expires: this.#now() + this.#ttlMs,
    });
  }

  forget(username: string): void {
    this.#entries.delete(username);
  }

  /**
   * SHA-256 over the secret key and the three values. One-shot `crypto.hash` (Node 20.12+) costs
   * a third of an HMAC object per request; the digests never leave the process, so a keyed hash
   * is enough (length extension needs a digest to extend). HMAC where `crypto.hash` is missing.
   */
  #digest(username: string, password: string, passwordHash: string): Buffer {
    const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
    if (oneShot) return oneShot('sha256', `${this.#keyText}\0${username}\0${passwordHash}\0${password}`, 'buffer');
    return createHmac('sha256', this.#key)
      .update(username)
      .update('\0')
      .update(passwordHash)
      .update('\0')
      .update(password)
      .digest();
  }
}
