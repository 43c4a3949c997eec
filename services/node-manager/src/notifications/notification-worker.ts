import { retryDelayMs, type NotificationRecord } from '../model/notification-records.js';
import type { NotificationChannelRepository } from '../repositories/notification-channel-repository.js';
import type { NotificationOutboxRepository } from '../repositories/notification-outbox-repository.js';
import type { AttemptResult } from './notification-sender.js';
import type { ChannelTarget } from '../model/notification-records.js';

/** The few calls the worker makes of a sender (`NotificationSender`). */
export interface Sender {
  send(target: ChannelTarget, notification: NotificationRecord): Promise<AttemptResult>;
}

export interface NotificationWorkerOptions {
  /** This instance's id: the claim holder. */
  readonly instanceId: string;
  /** Notifications claimed and sent at once, at most. */
  readonly batch: number;
  /** How long a claim holds, ms: longer than one attempt can take. */
  readonly leaseMs: number;
  /** Attempts before a notification is `failed`. */
  readonly maxAttempts: number;
  /** Wait after the first failed attempt, ms; doubled after each further one. */
  readonly retryBaseMs: number;
  /** Longest wait between attempts, ms. */
  readonly retryMaxMs: number;
  /** How often the outbox is read for due notifications, ms (an alarm change also wakes the worker). */
  readonly pollMs: number;
}

/** Where the worker reports failed attempts: ids and the redacted error only. */
export interface WorkerLog {
  warn(fields: object, message: string): void;
}

/**
 * Delivers the outbox: claims due notifications (one instance each, `NotificationOutboxRepository`),
 * sends each once, records the attempt, and schedules the next one with exponential backoff until
 * `maxAttempts`, after which the notification is `failed`. Runs beside alarm handling, never in it.
 */
export class NotificationWorker {
  readonly #outbox: NotificationOutboxRepository;
  readonly #channels: NotificationChannelRepository;
  readonly #sender: Sender;
  readonly #options: NotificationWorkerOptions;
  readonly #log: WorkerLog;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  constructor(
    outbox: NotificationOutboxRepository,
    channels: NotificationChannelRepository,
    sender: Sender,
    options: NotificationWorkerOptions,
    log: WorkerLog,
    now: () => number = Date.now,
  ) {
    this.#outbox = outbox;
    this.#channels = channels;
    this.#sender = sender;
    this.#options = options;
    this.#log = log;
    this.#now = now;
  }

  /** Starts polling the outbox. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#timer = setInterval(() => this.nudge(), this.#options.pollMs);
    this.#timer.unref();
    this.nudge();
  }

  /** Stops polling and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Reads the outbox soon (after an alarm change queued something). */
  nudge(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain()
      .catch((error: unknown) => this.#log.warn({ err: error }, 'notification delivery round failed'))
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.nudge();
        }
      });
  }

  /** Delivers every notification due now; returns how many attempts were made. */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.#now();
      const claimed = await this.#outbox.claimDue(
        this.#options.instanceId,
        now,
        this.#options.batch,
        this.#options.leaseMs,
      );
      await Promise.all(claimed.map((notification) => this.#deliver(notification)));
      total += claimed.length;
      if (claimed.length < this.#options.batch) return total;
    }
  }

  async #drain(): Promise<void> {
    await this.runOnce();
  }

  async #deliver(notification: NotificationRecord): Promise<void> {
    const startedAt = this.#now();
    const started = performance.now();
    const attempt = notification.attempts + 1;
    let result: AttemptResult;
    try {
      const target = await this.#channels.findTarget(notification.channelId);
      result = target
        ? await this.#sender.send(target, notification)
        : { ok: false, statusCode: null, reply: null, error: 'the channel was deleted' };
    } catch (error) {
      result = {
        ok: false,
        statusCode: null,
        reply: null,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    const durationMs = Math.round(performance.now() - started);
    const { maxAttempts, retryBaseMs, retryMaxMs } = this.#options;
    const finished = result.ok || attempt >= maxAttempts;
    const outcome = {
      status: result.ok ? ('delivered' as const) : finished ? ('failed' as const) : ('pending' as const),
      nextAttemptAt: finished ? this.#now() : this.#now() + retryDelayMs(attempt, retryBaseMs, retryMaxMs),
    };
    if (!result.ok)
      this.#log.warn(
        { notificationId: notification.id, channelId: notification.channelId, attempt, error: result.error },
        finished ? 'notification failed for good' : 'notification attempt failed; will retry',
      );
    await this.#outbox.finish(
      this.#options.instanceId,
      { notificationId: notification.id, attempt, startedAt, durationMs, ...result },
      outcome,
    );
  }
}
