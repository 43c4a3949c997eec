import { newInstanceId, startWorkLeases, type Database, type WorkLeases } from '@triad/db';
import { errorMessage } from '@triad/common';
import { applyDuePrices, type DuePricesOutcome } from '../commands/apply-due-prices.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { PriceScheduleRepository } from '../repositories/price-schedule-repository.js';
import { WaitingArticleRepository } from '../repositories/waiting-article-repository.js';
import type { SearchBackend } from '../search/search-backend.js';

/** Table prefix of the content API's work leases (migration 0010). */
export const CONTENT_LEASE_PREFIX = 'content';
/** The one item leased: whoever holds it runs the timer. */
export const PRICE_TIMER_ITEM = 'price-validity';

/** Shortest wait between two wakes, ms. */
export const MIN_WAKE_MS = 60_000; // 1 min
/** Longest wait between two wakes, ms: articles a CLI import dates sooner are found by then. */
export const MAX_WAKE_MS = 3_600_000; // 1 h

/** The time and the timers the price timer uses (a fake one in tests). */
export interface TimerClock {
  now(): Date;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: TimerClock = {
  now: () => new Date(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Where the timer reports (a pino logger fits). */
export interface PriceTimerLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** What the timer reads and applies through. */
export interface PriceTimerStore {
  readonly backend: Pick<SearchBackend, 'findShop' | 'applyShopDelta'>;
  readonly waiting: Pick<WaitingArticleRepository, 'next' | 'due'>;
  /** The price dates of searchable articles; absent: only waiting articles are looked at. */
  readonly schedule?: Pick<PriceScheduleRepository, 'next' | 'due'>;
}

/**
 * Makes articles kept not searchable searchable when their price starts, and moves searchable
 * articles onto their next prices (or out of search) when theirs end or a preferred ladder starts
 * (decision 0033): wakes at the earliest `searchable_from` or `due_at`, at most every minute and
 * at least once an hour, applies
 * the due ones (`applyDuePrices`: a new content version per shop changed) and sleeps again. A
 * failed round is logged and tried again at the next wake.
 */
export class PriceValidityTimer {
  readonly #store: PriceTimerStore;
  readonly #clock: TimerClock;
  readonly #log: PriceTimerLog | undefined;
  #handle: unknown;
  #running = false;
  #round: Promise<void> | undefined;

  constructor(store: PriceTimerStore, options: { readonly clock?: TimerClock; readonly log?: PriceTimerLog } = {}) {
    this.#store = store;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#log = options.log;
  }

  /** Applies what is due now, then sleeps until the next date. */
  start(): Promise<void> {
    this.#running = true;
    return this.wake();
  }

  /** Stops waking (a round running finishes). Idempotent. */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
    await this.#round;
  }

  /** One round now: applies the due articles, then schedules the next wake. Resolves when both are done. */
  wake(): Promise<void> {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
    this.#round = this.#wake();
    return this.#round;
  }

  async #wake(): Promise<void> {
    if (!this.#running) return;
    const now = this.#clock.now();
    let delay = MAX_WAKE_MS;
    try {
      const { backend, waiting, schedule } = this.#store;
      const outcome: DuePricesOutcome = await applyDuePrices(backend, waiting, now, schedule);
      if (outcome.shops > 0) this.#log?.info({ ...outcome }, 'prices starting or ending now applied');
      const dates = [await waiting.next(), await schedule?.next()].filter((d) => d !== undefined);
      const next = dates.sort()[0];
      if (next !== undefined) delay = Math.min(MAX_WAKE_MS, Math.max(MIN_WAKE_MS, Date.parse(next) - now.getTime()));
    } catch (error) {
      this.#log?.warn({ err: errorMessage(error) }, 'prices starting now could not be applied; trying again later');
      delay = MIN_WAKE_MS;
    }
    if (this.#running) this.#handle = this.#clock.setTimeout(() => void this.wake(), delay);
  }
}

/**
 * Runs the price timer on one instance of the service: the one holding the work lease of
 * `PRICE_TIMER_ITEM` (decision 0029; on SQLite, the only instance). Returns what stops it.
 */
export async function startPriceValidityTimer(options: {
  readonly database: Database<ContentTables>;
  readonly backend: PriceTimerStore['backend'];
  readonly log?: PriceTimerLog;
}): Promise<{ stop(): Promise<void> }> {
  const timer = new PriceValidityTimer(
    {
      backend: options.backend,
      waiting: new WaitingArticleRepository(options.database),
      schedule: new PriceScheduleRepository(options.database),
    },
    options.log ? { log: options.log } : {},
  );
  const leases: WorkLeases = await startWorkLeases({
    database: options.database,
    tablePrefix: CONTENT_LEASE_PREFIX,
    instanceId: newInstanceId(),
    listItems: () => Promise.resolve([PRICE_TIMER_ITEM]),
    // The round runs in the background: the lease's next heartbeat must not wait for it.
    onChange: (change) => {
      if (change.gained.includes(PRICE_TIMER_ITEM)) void timer.start();
      if (change.lost.includes(PRICE_TIMER_ITEM)) void timer.stop();
    },
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    stop: async () => {
      await leases.stop();
      await timer.stop();
    },
  };
}
