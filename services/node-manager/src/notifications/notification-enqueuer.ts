import type { AlarmRecord } from '../model/alarm-record.js';
import {
  NOTIFIED_ACTIONS,
  subscriptionMatches,
  tagsVisible,
  type NotifiedAction,
  type NotifiedAlarm,
} from '../model/notification-records.js';
import type { NotificationChannelRepository } from '../repositories/notification-channel-repository.js';
import type { NotificationOutboxRepository } from '../repositories/notification-outbox-repository.js';

/** What the enqueuer reads besides its repositories. */
export interface EnqueuerLookups {
  /** A user's tag filter, or undefined when the user no longer exists. */
  userTags(username: string): Promise<'all' | readonly string[] | undefined>;
  /** The family of a node, or undefined when the node is gone. */
  familyOf(nodeId: string): Promise<string | undefined>;
}

/** Where the enqueuer reports failures (never with secrets: it handles none). */
export interface EnqueuerLog {
  warn(fields: object, message: string): void;
}

/**
 * Turns alarm changes into outbox rows: for a raise, an acknowledgement or a clear, the channels
 * of the subscriptions that ask for it (severity, tags, alarm ids, family, and the subscriber's
 * own tag filter) each get one notification. It runs after the change is stored and is never
 * awaited by it: alarm handling does not wait on the database write here, let alone the network.
 */
export class NotificationEnqueuer {
  readonly #channels: NotificationChannelRepository;
  readonly #outbox: NotificationOutboxRepository;
  readonly #lookups: EnqueuerLookups;
  readonly #log: EnqueuerLog;
  readonly #now: () => number;
  readonly #onEnqueued: () => void;
  readonly #running = new Set<Promise<void>>();

  constructor(
    channels: NotificationChannelRepository,
    outbox: NotificationOutboxRepository,
    lookups: EnqueuerLookups,
    options: { log: EnqueuerLog; now: () => number; onEnqueued: () => void },
  ) {
    this.#channels = channels;
    this.#outbox = outbox;
    this.#lookups = lookups;
    this.#log = options.log;
    this.#now = options.now;
    this.#onEnqueued = options.onEnqueued;
  }

  /** The `AlarmObserver`: starts the enqueueing and returns at once. */
  readonly observe = (action: string, alarm: AlarmRecord): void => {
    if (!(NOTIFIED_ACTIONS as readonly string[]).includes(action)) return;
    const work = this.enqueue(action as NotifiedAction, alarm).then(
      (count) => {
        if (count > 0) this.#onEnqueued();
      },
      (error: unknown) =>
        this.#log.warn(
          { alarmId: alarm.alarmId, eventUs: alarm.eventUs, err: error },
          'could not queue the notifications of an alarm change',
        ),
    );
    this.#running.add(work);
    void work.finally(() => this.#running.delete(work));
  };

  /** Queues the notifications of one alarm change; returns how many were new. */
  async enqueue(action: NotifiedAction, alarm: AlarmRecord): Promise<number> {
    const subscriptions = await this.#channels.subscriptions();
    if (subscriptions.length === 0) return 0;
    const now = this.#now();
    const notified: NotifiedAlarm = {
      action,
      alarmId: alarm.alarmId,
      eventUs: alarm.eventUs,
      nodeId: alarm.nodeId,
      nodeName: alarm.nodeName,
      rawSrc: alarm.rawSrc,
      severity: alarm.severity,
      probableCause: alarm.probableCause,
      description: alarm.description,
      additionalInformation: alarm.additionalInformation,
      tags: alarm.tags,
      ackUser: action === 'acknowledged' ? alarm.ackUser : null,
      time: now,
    };
    const familyId = subscriptions.some((s) => s.nodeFamilyId !== null)
      ? await this.#lookups.familyOf(alarm.nodeId)
      : undefined;
    const channels = new Set<string>();
    const userTags = new Map<string, 'all' | readonly string[] | undefined>();
    for (const subscription of subscriptions) {
      if (channels.has(subscription.channelId) || !subscriptionMatches(subscription, notified, familyId)) continue;
      if (!userTags.has(subscription.username))
        userTags.set(subscription.username, await this.#lookups.userTags(subscription.username));
      const tags = userTags.get(subscription.username);
      if (tags !== undefined && tagsVisible(tags, alarm.tags)) channels.add(subscription.channelId);
    }
    return this.#outbox.enqueue([...channels], notified, now);
  }

  /** Resolves once every enqueueing started so far has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
