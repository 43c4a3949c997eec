import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ConcurrencyLimit } from '@triad/common';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

/**
 * Hashes run at once by default: one less than the cores, at least 1. scrypt runs on libuv's
 * thread pool (4 threads); unbounded, a burst of wrong passwords takes every core from the event
 * loop and every other request waits.
 */
export function defaultHashConcurrency(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/**
 * Hashes and checks passwords with scrypt. A stored hash reads `scrypt$N$r$p$salt$key` (salt
 * and key base64url), so a hash made with another cost still verifies after the cost changes.
 * At most `concurrency` scrypt runs at a time; the others queue (first come, first served).
 */
export class PasswordHasher {
  readonly #cost: number;
  readonly #limit: ConcurrencyLimit;

  /**
   * @param cost scrypt N, a power of two (16384 in production; tests use a tiny one).
   * @param concurrency most scrypt runs at a time (`defaultHashConcurrency()` by default).
   * @throws RangeError for a cost that is not a power of two >= 2 or a concurrency below 1.
   */
  constructor(cost: number, concurrency = defaultHashConcurrency()) {
    if (!Number.isInteger(cost) || cost < 2 || (cost & (cost - 1)) !== 0)
      throw new RangeError(`scrypt cost must be a power of two >= 2, got ${cost}`);
    this.#cost = cost;
    this.#limit = new ConcurrencyLimit(concurrency);
  }

  /** Most scrypt runs at a time. */
  get concurrency(): number {
    return this.#limit.limit;
  }

  /** scrypt runs in progress and waiting for a turn. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.#limit.running, waiting: this.#limit.waiting };
  }

  /** A new salted hash of `password`. */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.#limit.run(() => derive(password, salt, this.#cost, BLOCK_SIZE, PARALLELISM));
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
    const salt = Buffer.from(parts[4] ?? '', 'base64url');
    const actual = await this.#limit.run(() => derive(password, salt, n, r, p));
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
