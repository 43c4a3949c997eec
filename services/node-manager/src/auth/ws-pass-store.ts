import { randomBytes } from 'node:crypto';

/**
 * WebSocket passes: 32 hex characters issued to a user by `GET /api/users/pass`, valid for
 * `ttlMs`, kept in memory only (a restart invalidates them; clients fetch a new one).
 */
export class WsPassStore {
  readonly #passes = new Map<string, { username: string; expires: number }>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** A fresh pass for `username`. */
  issue(username: string): string {
    this.#sweep();
    const pass = randomBytes(16).toString('hex');
    this.#passes.set(pass, { username, expires: this.#now() + this.#ttlMs });
    return pass;
  }

  /** The user a valid pass belongs to, when `username` (if given) matches; else undefined. */
  check(pass: string, username?: string): string | undefined {
    const entry = this.#passes.get(pass);
    if (!entry || entry.expires <= this.#now()) return undefined;
    if (username !== undefined && username !== entry.username) return undefined;
    return entry.username;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [pass, entry] of this.#passes) if (entry.expires <= now) this.#passes.delete(pass);
  }
}
