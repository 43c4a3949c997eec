import { hash } from 'node:crypto';
import type { CompactJWSHeaderParameters, FlattenedJWSInput } from 'jose';

/** What a verified token gave, and what is needed to check again that its key is still accepted. */
export interface VerifiedToken<C> {
  readonly caller: C;
  /** The token's `exp`, seconds since the epoch: the entry is not used from then on. */
  readonly exp: number;
  /** The protected header and parts the key was resolved from. */
  readonly header: CompactJWSHeaderParameters;
  readonly input: FlattenedJWSInput;
  /** The key that verified the signature (compared by identity with the key resolved now). */
  readonly key: unknown;
}

interface Entry<C> extends VerifiedToken<C> {
  /** Seconds since the epoch after which the token is verified again. */
  readonly until: number;
}

export interface VerifiedTokensOptions {
  /** Most tokens kept; the least recently used leaves first. Default 10,000. */
  readonly entries?: number;
  /** Seconds an entry is used before the token is verified again (and never past its `exp`). Default 60. */
  readonly ttlSeconds?: number;
}

/**
 * Tokens whose signature and claims were verified, keyed by the SHA-256 of the token text (the
 * text itself is not kept), so that a client sending the same token on every call costs one
 * signature check per `ttlSeconds` instead of one per call. Only verified tokens enter, so a
 * flood of invalid tokens neither grows it nor skips their verification; at most `entries` are
 * kept. An entry is valid until the earlier of its token's `exp` and `ttlSeconds` after it was
 * verified; the caller still resolves the token's key on every use and verifies it again when the
 * key is no longer the one that verified it (a key removed from the JWKS or the shared store).
 */
export class VerifiedTokens<C> {
  readonly #entries = new Map<string, Entry<C>>();
  readonly #max: number;
  readonly #ttl: number;

  constructor(options: VerifiedTokensOptions = {}) {
    this.#max = options.entries ?? 10_000;
    this.#ttl = options.ttlSeconds ?? 60;
  }

  /** How many tokens are kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** The key of `token` in this cache: its SHA-256, base64. */
  static keyOf(token: string): string {
    return hash('sha256', token, 'base64');
  }

  /** The entry for the token hashed to `key` while it is valid at `now` (seconds); undefined otherwise. */
  get(key: string, now: number): VerifiedToken<C> | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (now >= entry.exp || now >= entry.until) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.#entries.set(key, entry);
    return entry;
  }

  /** Keeps `token` (verified at `now`, seconds) under `key`, evicting the least recently used beyond the bound. */
  set(key: string, token: VerifiedToken<C>, now: number): void {
    if (this.#max <= 0 || this.#ttl <= 0) return;
    this.#entries.delete(key);
    while (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { ...token, until: now + this.#ttl });
  }

  /** Forgets the token hashed to `key`. */
  delete(key: string): void {
    this.#entries.delete(key);
  }
}
