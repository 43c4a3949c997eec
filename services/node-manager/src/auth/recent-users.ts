import type { UserRecord } from '../model/user-record.js';

/**
 * Users read from the store in the last `ttlMs`, so that a client sending Basic credentials on
 * every call does not cost a user query per request. Changes made through this service forget
 * the entry at once (`UserCommands`); changes made by another process on the same database (the
 * `triad users` CLI beside a running service) are seen once the entry is older than `ttlMs`.
 * Unknown users are never remembered, so a user added elsewhere can sign in at once.
 */
export class RecentUsers {
  readonly #entries = new Map<string, { user: UserRecord; readAt: number }>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  /** @param ttlMs how long a read user is reused, ms; 0 reads the store every time. */
  constructor(ttlMs: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** The user, from memory when read less than `ttlMs` ago, else from `load` (and remembered). */
  async get(
    username: string,
    load: (username: string) => Promise<UserRecord | undefined>,
  ): Promise<UserRecord | undefined> {
    const entry = this.#entries.get(username);
    const now = this.#now();
    if (entry && now - entry.readAt < this.#ttlMs) return entry.user;
    const user = await load(username);
    if (!user) {
      this.#entries.delete(username);
      return undefined;
    }
    if (this.#ttlMs > 0) {
      if (this.#entries.size > 10_000) this.#entries.clear();
      this.#entries.set(username, { user, readAt: now });
    }
    return user;
  }

  /** The user as last read, however long ago; undefined when never read (or forgotten). */
  peek(username: string): UserRecord | undefined {
    return this.#entries.get(username)?.user;
  }

  forget(username: string): void {
    this.#entries.delete(username);
  }
}
