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

/** Checks waiting at most, by default, per hash allowed at a time: about 3 s of scrypt at N = 16384. */
export const HASH_QUEUE_PER_RUN = 64;

/**
 * A password check refused because `maxWaiting` checks already wait for a turn: the caller
 * should answer "busy, retry shortly" (503 with Retry-After) instead of queueing without end.
 */
export class PasswordHashBusyError extends Error {
  constructor(waiting: number) {
    super(`${waiting} password checks are waiting already; retry shortly`);
    this.name = 'PasswordHashBusyError';
  }
}

/**
 * Hashes and checks passwords with scrypt. A stored hash reads `scrypt$N$r$p$salt$key` (salt
 * and key base64url), so a hash made with another cost still verifies after the cost changes.
 * At most `concurrency` scrypt runs at a time; the others queue (first come, first served), up
 * to `maxWaiting` checks: a spray of guesses cannot grow the queue, or the wait, without bound.
 */
export class PasswordHasher {
  readonly #cost: number;
  readonly #limit: ConcurrencyLimit;
  readonly #maxWaiting: number;

  /**
   * @param cost scrypt N, a power of two (16384 in production; tests use a tiny one).
   * @param concurrency most scrypt runs at a time (`defaultHashConcurrency()` by default).
   * @param maxWaiting most checks waiting for a turn (`HASH_QUEUE_PER_RUN` per run by default);
   *   `verify` refuses more with `PasswordHashBusyError`. New hashes (set by admins) always queue.
   * @throws RangeError for a cost that is not a power of two >= 2, a concurrency below 1 or a negative maxWaiting.
   */
  constructor(cost: number, concurrency = defaultHashConcurrency(), maxWaiting = concurrency * HASH_QUEUE_PER_RUN) {
    if (!Number.isInteger(cost) || cost < 2 || (cost & (cost - 1)) !== 0)
      throw new RangeError(`scrypt cost must be a power of two >= 2, got ${cost}`);
    this.#cost = cost;
    this.#limit = new ConcurrencyLimit(concurrency);
    if (!Number.isInteger(maxWaiting) || maxWaiting < 0)
      throw new RangeError(`the password check queue must hold >= 0 checks, got ${maxWaiting}`);
    this.#maxWaiting = maxWaiting;
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

  /**
   * True when `password` matches `stored`; compares in constant time; false for malformed hashes.
   *
   * @throws PasswordHashBusyError when every run is taken and `maxWaiting` checks wait already.
   */
  async verify(password: string, stored: string): Promise<boolean> {
    const { running, waiting } = this.load;
    if (running >= this.#limit.limit && waiting >= this.#maxWaiting) throw new PasswordHashBusyError(waiting);
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
