import { createHash, randomBytes } from 'node:crypto';
import type { WsPassRepository } from '../repositories/ws-pass-repository.js';
import type { UserRecord } from '../model/user-record.js';
import { sessionStamp } from './session-stamp.js';

/** Where the pass store reads the stored user (the database itself, never a cache). */
export interface PassUsers {
  find(username: string): Promise<UserRecord | undefined>;
}

/**
 * WebSocket passes: 32 hex characters issued to a user by `GET /api/users/pass`, valid for
 * `ttlMs` and only while the user stays as they were when it was issued: each pass remembers the
 * user's `sessionStamp`, and `check` reads the stored user again, so a pass dies with a password,
 * role, rights or tags change and with the user's deletion, whichever process or instance made
 * the change. Kept in memory (a restart invalidates them; clients fetch a new one) and, with
 * `shared` (several instances on PostgreSQL), also in the database, so every instance accepts a
 * pass any of them issued (docs/decisions/0027).
 */
export class WsPassStore {
  readonly #passes = new Map<string, { username: string; stamp: string; expires: number }>();
  readonly #ttlMs: number;
  readonly #users: PassUsers;
  readonly #now: () => number;
  readonly #shared: WsPassRepository | undefined;

  constructor(ttlMs: number, users: PassUsers, now: () => number = Date.now, shared?: WsPassRepository) {
    this.#ttlMs = ttlMs;
    this.#users = users;
    this.#now = now;
    this.#shared = shared;
  }

  /** A fresh pass for `user` as stored now. */
  async issue(user: UserRecord): Promise<string> {
    this.#sweep();
    const pass = randomBytes(16).toString('hex');
    const entry = { username: user.username, stamp: sessionStamp(user), expires: this.#now() + this.#ttlMs };
    await this.#shared?.insert(passHash(pass), entry, this.#now());
    this.#passes.set(pass, entry);
    return pass;
  }

  /**
   * The stored user a valid pass belongs to, when `username` (if given) matches and the user is
   * still as when the pass was issued; else undefined (and the pass is forgotten).
   */
  async check(pass: string, username?: string): Promise<UserRecord | undefined> {
    const entry = this.#passes.get(pass) ?? (await this.#shared?.find(passHash(pass)));
    if (!entry || entry.expires <= this.#now()) return undefined;
    if (username !== undefined && username !== entry.username) return undefined;
    const user = await this.#users.find(entry.username);
    if (user && entry.stamp !== undefined && sessionStamp(user) === entry.stamp) return user;
    this.#passes.delete(pass);
    return undefined;
  }

  /**
   * Forgets every pass of `username` (its user changed or was deleted). `check` refuses them anyway;
   * this only frees them early, so a failure to reach the database is ignored.
   */
  async revoke(username: string): Promise<void> {
    for (const [pass, entry] of this.#passes) if (entry.username === username) this.#passes.delete(pass);
    await this.#shared?.deleteUser(username).catch(() => {});
  }

  #sweep(): void {
    const now = this.#now();
    for (const [pass, entry] of this.#passes) if (entry.expires <= now) this.#passes.delete(pass);
  }
}

function passHash(pass: string): string {
  return createHash('sha256').update(pass).digest('hex');
}
