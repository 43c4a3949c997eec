/** How failed sign-ins are slowed down; every duration in ms. */
export interface LoginThrottlePolicy {
  /** Failures of one username from one client address before it must wait. */
  readonly pairFreeFailures: number;
  /** Failures from one client address, any usernames, before it must wait. */
  readonly addressFreeFailures: number;
  /** Failures of one username, any addresses, before every client (but known ones) must wait. */
  readonly usernameFreeFailures: number;
  /** The first wait; each further failure doubles it. */
  readonly baseDelayMs: number;
  /** Longest wait of a client address (alone or for one username). */
  readonly maxDelayMs: number;
  /**
   * Longest wait a username's failures impose on other clients: an attacker can keep a user
   * waiting at most this long per failure, never locked out.
   */
  readonly maxUsernameDelayMs: number;
  /** Failure counts are forgotten after this long without a failure. */
  readonly forgetAfterMs: number;
  /**
   * A client address that signed in as a user within this time is known to that user: only that
   * pair's own failures make it wait, not the address's or the username's.
   */
  readonly knownClientMs: number;
}

/** The policy `docs/node-manager.md` documents. */
export const DEFAULT_LOGIN_THROTTLE_POLICY: LoginThrottlePolicy = Object.freeze({
  pairFreeFailures: 3,
  addressFreeFailures: 10,
  usernameFreeFailures: 10,
  baseDelayMs: 1_000, // 1 s
  maxDelayMs: 900_000, // 15 min
  maxUsernameDelayMs: 30_000, // 30 s
  forgetAfterMs: 900_000, // 15 min
  knownClientMs: 86_400_000, // 24 h
});

/**
 * A sign-in outcome the other instances on one database count too (docs/decisions/0027): a
 * checked password that was wrong, or the clearing of a user's failures by a correct one. Keys
 * are as the throttle got them (`Authenticator` gives digests, never names or addresses).
 */
export interface ThrottleOutcome {
  readonly kind: 'failed' | 'cleared';
  readonly username: string;
  readonly address: string;
}

/** Most keys each table keeps; the oldest go first, so memory stays bounded under a spray of names. */
const MAX_ENTRIES = 10_000;

interface Failures {
  count: number;
  last: number;
}

/**
 * Counts failed sign-ins per username and client address, per address and per username, and says
 * how long a client must wait before its next attempt is checked: nothing for the first free
 * failures, then `baseDelayMs` doubling with each failure up to the caps. Waiting attempts are
 * refused without being counted. A success clears the counts of its username and pair (not of the
 * address) and makes the address known to the user for `knownClientMs`. Pure bookkeeping: the
 * clock is injected and nothing sleeps.
 */
export class LoginThrottle {
  readonly #policy: LoginThrottlePolicy;
  readonly #now: () => number;
  readonly #pairs = new Map<string, Failures>();
  readonly #addresses = new Map<string, Failures>();
  readonly #usernames = new Map<string, Failures>();
  readonly #known = new Map<string, number>();

  constructor(policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE_POLICY, now: () => number = Date.now) {
    this.#policy = policy;
    this.#now = now;
  }

  /** How long, ms, the client at `address` must still wait before signing in as `username`; 0 when it may try. */
  waitMs(username: string, address: string): number {
    const p = this.#policy;
    const now = this.#now();
    const pair = pairKey(username, address);
    const own = this.#wait(this.#pairs.get(pair), p.pairFreeFailures, p.maxDelayMs, now);
    // Others' failures (on this address, or on this username elsewhere) do not hold up a client
    // the user signed in from lately.
    const knownSince = this.#known.get(pair);
    if (knownSince !== undefined && now - knownSince <= p.knownClientMs) return own;
    return Math.max(
      own,
      this.#wait(this.#addresses.get(address), p.addressFreeFailures, p.maxDelayMs, now),
      this.#wait(this.#usernames.get(username), p.usernameFreeFailures, p.maxUsernameDelayMs, now),
    );
  }

  /**
   * Records an attempt about to be checked, counted as a failure until `succeeded` says otherwise,
   * so that a burst of concurrent attempts is throttled like the same attempts one after another.
   */
  failed(username: string, address: string): void {
    const now = this.#now();
    count(this.#pairs, pairKey(username, address), now, this.#policy.forgetAfterMs);
    count(this.#addresses, address, now, this.#policy.forgetAfterMs);
    count(this.#usernames, username, now, this.#policy.forgetAfterMs);
  }

  /** Records that the attempt `failed` counted had the correct password. */
  succeeded(username: string, address: string): void {
    const pair = pairKey(username, address);
    this.#pairs.delete(pair);
    this.#usernames.delete(username);
    // Undo the failure `failed` counted for this attempt.
    const fromAddress = this.#addresses.get(address);
    if (fromAddress && --fromAddress.count <= 0) this.#addresses.delete(address);
    this.#known.delete(pair);
    if (this.#known.size >= MAX_ENTRIES) this.#known.delete(this.#known.keys().next().value ?? '');
    this.#known.set(pair, this.#now());
  }

  /** True when failures of this username, or of this username from this address, are counted. */
  hasFailures(username: string, address: string): boolean {
    return this.#usernames.has(username) || this.#pairs.has(pairKey(username, address));
  }

  /** Counts what another instance saw: a failed sign-in, or the clearing a success made there. */
  applyRemote(outcome: ThrottleOutcome): void {
    if (outcome.kind === 'failed') {
      this.failed(outcome.username, outcome.address);
      return;
    }
    this.#pairs.delete(pairKey(outcome.username, outcome.address));
    this.#usernames.delete(outcome.username);
  }

  #wait(failures: Failures | undefined, free: number, cap: number, now: number): number {
    if (!failures || failures.count < free || now - failures.last > this.#policy.forgetAfterMs) return 0;
    const delay = Math.min(cap, this.#policy.baseDelayMs * 2 ** Math.min(failures.count - free, 30));
    return Math.max(0, failures.last + delay - now);
  }
}

function pairKey(username: string, address: string): string {
  return `${username}\0${address}`;
}

function count(table: Map<string, Failures>, key: string, now: number, forgetAfterMs: number): void {
  const entry = table.get(key);
  const fresh = entry && now - entry.last <= forgetAfterMs ? entry.count : 0;
  // Re-inserted, so the map's order is least recently failed first.
  table.delete(key);
  if (table.size >= MAX_ENTRIES) table.delete(table.keys().next().value ?? '');
  table.set(key, { count: fresh + 1, last: now });
}
