/** How many wrong secrets `SecretThrottle` lets through, and how fast it forgives them. */
export interface SecretThrottleOptions {
  /** Wrong secrets one client id (or one client address) may send in a row before it must wait. */
  readonly burst: number;
  /** Seconds in which a key that stopped failing regains all `burst` tries (one every `windowSeconds / burst`). */
  readonly windowSeconds: number;
  /** Keys remembered at most (each kind); beyond, the longest-forgiven are dropped first. Default 10,000. */
  readonly maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Throttles wrong client secrets at `POST /oauth/token`: a token bucket per client id and one per
 * client address, each holding `burst` tries and refilled by one every `windowSeconds / burst`.
 * Every check takes a try from both, and a right secret gives it back; while either is empty the
 * request is refused before its secret is checked (429 with `Retry-After`), whatever the secret.
 * Right secrets cost nothing, so a client that stops failing (or whose attacker stops) has its
 * tries back within `windowSeconds`: nobody is locked out for longer. Pure: the caller passes the
 * clock.
 */
export class SecretThrottle {
  readonly #burst: number;
  readonly #perMs: number;
  readonly #maxKeys: number;
  readonly #byClient = new Map<string, Bucket>();
  readonly #byAddress = new Map<string, Bucket>();

  constructor(options: SecretThrottleOptions) {
    this.#burst = options.burst;
    this.#perMs = options.burst / (options.windowSeconds * 1000);
    this.#maxKeys = options.maxKeys ?? 10_000;
  }

  /**
   * Before a secret is checked: 0 when `clientId` from `address` may try now (a try is taken from
   * both buckets, so parallel requests cannot all slip through), else the milliseconds to wait
   * (nothing taken).
   */
  take(clientId: string, address: string, now: number): number {
    const wait = Math.max(this.#wait(this.#byClient, clientId, now), this.#wait(this.#byAddress, address, now));
    if (wait > 0) return wait;
    this.#change(this.#byClient, clientId, now, -1);
    this.#change(this.#byAddress, address, now, -1);
    return 0;
  }

  /** After the secret was right: gives the try taken back. */
  refund(clientId: string, address: string, now: number): void {
    this.#change(this.#byClient, clientId, now, 1);
    this.#change(this.#byAddress, address, now, 1);
  }

  #tokens(bucket: Bucket | undefined, now: number): number {
    if (!bucket) return this.#burst;
    return Math.min(this.#burst, bucket.tokens + (now - bucket.at) * this.#perMs);
  }

  #wait(buckets: Map<string, Bucket>, key: string, now: number): number {
    const tokens = this.#tokens(buckets.get(key), now);
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.#perMs);
  }

  #change(buckets: Map<string, Bucket>, key: string, now: number, by: number): void {
    const tokens = Math.min(this.#burst, Math.max(0, this.#tokens(buckets.get(key), now) + by));
    buckets.delete(key); // re-inserted last: the map's order is the order of last changes
    if (tokens >= this.#burst) return; // a full bucket is what an unknown key has
    buckets.set(key, { tokens, at: now });
    if (buckets.size <= this.#maxKeys) return;
    // The oldest change first: its bucket is the fullest.
    for (const oldest of buckets.keys()) {
      buckets.delete(oldest);
      if (buckets.size <= this.#maxKeys) break;
    }
  }
}
