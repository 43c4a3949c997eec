import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

/**
 * Hashes and checks passwords with scrypt. A stored hash reads `scrypt$N$r$p$salt$key` (salt
 * and key base64url), so a hash made with another cost still verifies after the cost changes.
 */
export class PasswordHasher {
  readonly #cost: number;

  /** @param cost scrypt N, a power of two (16384 in production; tests use a tiny one). */
  constructor(cost: number) {
    if (!Number.isInteger(cost) || cost < 2 || (cost & (cost - 1)) !== 0)
      throw new RangeError(`scrypt cost must be a power of two >= 2, got ${cost}`);
    this.#cost = cost;
  }

  /** A new salted hash of `password`. */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.#cost, BLOCK_SIZE, PARALLELISM);
    return ['scrypt', this.#cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join(
      '$',
    );
  }

  /** True when `password` matches `stored`; compares in constant time; false for malformed hashes. */
  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
    if (![n, r, p].every((x) => Number.isInteger(x) && x > 0)) return false;
    const expected = Buffer.from(parts[5] ?? '', 'base64url');
    if (expected.length !== KEY_LENGTH) return false;
    const actual = await derive(password, Buffer.from(parts[4] ?? '', 'base64url'), n, r, p);
    return timingSafeEqual(actual, expected);
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
