import { createHash, randomBytes } from 'node:crypto';
import type { WsPassRepository } from '../repositories/ws-pass-repository.js';

/**
 * WebSocket passes: 32 hex characters issued to a user by `GET /api/users/pass`, valid for
 * `ttlMs`. Kept in memory (a restart invalidates them; clients fetch a new one) and, with
 * `shared` (several instances on PostgreSQL), also in the database, so every instance accepts a
 * pass any of them issued (docs/decisions/0027).
 */
export class WsPassStore {
  readonly #passes = new Map<string, { username: string; expires: number }>();
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #shared: WsPassRepository | undefined;

  constructor(ttlMs: number, now: () => number = Date.now, shared?: WsPassRepository) {
    this.#ttlMs = ttlMs;
    this.#now = now;
    this.#shared = shared;
  }

  /** A fresh pass for `username`. */
  async issue(username: string): Promise<string> {
    this.#sweep();
    const pass = randomBytes(16).toString('hex');
    const entry = { username, expires: this.#now() + this.#ttlMs };
    await this.#shared?.insert(passHash(pass), username, entry.expires, this.#now());
    this.#passes.set(pass, entry);
    return pass;
  }

  /** The user a valid pass belongs to, when `username` (if given) matches; else undefined. */
  async check(pass: string, username?: string): Promise<string | undefined> {
    const entry = this.#passes.get(pass) ?? (await this.#shared?.find(passHash(pass)));
    if (!entry || entry.expires <= this.#now()) return undefined;
    if (username !== undefined && username !== entry.username) return undefined;
    return entry.username;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [pass, entry] of this.#passes) if (entry.expires <= now) this.#passes.delete(pass);
  }
}

function passHash(pass: string): string {
  return createHash('sha256').update(pass).digest('hex');
}
