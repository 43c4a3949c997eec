import { registerWithEpmd, type EpmdRegistration, type EpmdRegistrationOptions } from './epmd-registration.js';

/** Whether our name is registered with EPMD now. */
export type EpmdKeeperState = 'registered' | 'reregistering' | 'closed';

/** Options of `EpmdKeeper.start`. */
export interface EpmdKeeperOptions extends Omit<EpmdRegistrationOptions, 'onLost'> {
  /** First wait before registering again after EPMD dropped us; doubles per failure. Default 500 ms. */
  readonly firstRetryMs?: number;
  /** Longest wait between two attempts. Default 30 s. */
  readonly maxRetryMs?: number;
  /** EPMD dropped our registration (killed or restarted): nodes cannot find us until it is back. */
  readonly onLost?: () => void;
  /** An attempt to register again failed; the next one comes after `retryInMs`. */
  readonly onRetryFailed?: (error: Error, attempt: number, retryInMs: number) => void;
  /** Registered again after `attempts` attempts; `creation` is what EPMD gave this time. */
  readonly onRegistered?: (attempts: number, creation: number) => void;
}

/**
 * Keeps a name registered with the local EPMD: when EPMD closes the connection (it was killed or
 * restarted), registers again with doubling waits (500 ms up to 30 s by default) until it answers,
 * so nodes can find us again without a restart of ours. (An Erlang node does not do this: it stays
 * unregistered until it restarts.) Our creation stays the first one EPMD gave: we are the same
 * incarnation of the name, and connected peers already hold pids made with it.
 */
export class EpmdKeeper {
  readonly #o: EpmdKeeperOptions;
  readonly creation: number;
  #current: EpmdRegistration | undefined;
  #state: EpmdKeeperState = 'registered';
  #timer: NodeJS.Timeout | undefined;
  #lastCreation: number;

  private constructor(options: EpmdKeeperOptions, first: EpmdRegistration) {
    this.#o = options;
    this.creation = first.creation;
    this.#lastCreation = first.creation;
    this.#current = first;
  }

  /** Registers the name once (rejects as `registerWithEpmd` does), then keeps it registered. */
  static async start(options: EpmdKeeperOptions): Promise<EpmdKeeper> {
    let lost = () => {};
    const first = await registerWithEpmd({ ...options, onLost: () => lost() });
    const keeper = new EpmdKeeper(options, first);
    lost = () => keeper.#lost();
    return keeper;
  }

  /** `registered`, `reregistering` (EPMD dropped us, attempts under way) or `closed`. */
  get state(): EpmdKeeperState {
    return this.#state;
  }

  /** The creation of the latest registration (differs from `creation` after EPMD restarted). */
  get lastCreation(): number {
    return this.#lastCreation;
  }

  /** Unregisters and stops registering again. Idempotent. */
  close(): void {
    this.#state = 'closed';
    clearTimeout(this.#timer);
    this.#current?.close();
    this.#current = undefined;
  }

  #lost(): void {
    if (this.#state === 'closed') return;
    this.#current = undefined;
    this.#state = 'reregistering';
    this.#o.onLost?.();
    this.#retry(1, this.#o.firstRetryMs ?? 500); // 0.5 s
  }

  #retry(attempt: number, waitMs: number): void {
    this.#timer = setTimeout(() => {
      registerWithEpmd({ ...this.#o, onLost: () => this.#lost() }).then(
        (registration) => {
          if (this.#state === 'closed') {
            registration.close();
            return;
          }
          this.#current = registration;
          this.#lastCreation = registration.creation;
          this.#state = 'registered';
          this.#o.onRegistered?.(attempt, registration.creation);
        },
        (error: Error) => {
          if (this.#state === 'closed') return;
          const next = Math.min(waitMs * 2, this.#o.maxRetryMs ?? 30_000); // 30 s
          this.#o.onRetryFailed?.(error, attempt, next);
          this.#retry(attempt + 1, next);
        },
      );
    }, waitMs);
    this.#timer.unref();
  }
}
