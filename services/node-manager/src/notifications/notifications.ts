import type { Database } from '@triad/db';
import { parseAddressList } from '@triad/device-drivers';
import type { SecretCipher } from '@triad/service-kit';
import type { AlarmRecord } from '../model/alarm-record.js';
import { NotificationChannelRepository } from '../repositories/notification-channel-repository.js';
import { NotificationOutboxRepository } from '../repositories/notification-outbox-repository.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { NotificationEnqueuer, type EnqueuerLookups } from './notification-enqueuer.js';
import { NotificationSender } from './notification-sender.js';
import { NotificationWorker } from './notification-worker.js';
import { NotifyAddressGuard } from './notify-address-guard.js';

/** The notification settings (`TRIAD_NOTIFY_*`, config.ts). */
export interface NotificationSettings {
  readonly notifyAllow: string;
  readonly notifyDeny: string;
  readonly notifyTimeoutMs: number;
  readonly notifyMaxAttempts: number;
  readonly notifyRetryBaseMs: number;
  readonly notifyPollMs: number;
}

/** Alarm notifications, wired: channels, outbox, the address policy, the enqueuer and the worker. */
export interface Notifications {
  readonly channels: NotificationChannelRepository;
  readonly outbox: NotificationOutboxRepository;
  readonly guard: NotifyAddressGuard;
  readonly enqueuer: NotificationEnqueuer;
  readonly worker: NotificationWorker;
  /** The `AlarmObserver` to hand to `AlarmCommands.observe`. */
  readonly observe: (action: string, alarm: AlarmRecord) => void;
}

export interface CreateNotificationsOptions {
  readonly database: Database<NodeManagerDatabase>;
  readonly settings: NotificationSettings;
  /** Seals the channels' secrets (`CHANNEL_SECRETS` purpose). */
  readonly secrets: SecretCipher;
  readonly lookups: EnqueuerLookups;
  readonly instanceId: string;
  /** Triad's own ports on this host, never a delivery target. */
  readonly ownPorts: () => Iterable<number>;
  readonly log: { warn(fields: object, message: string): void };
  readonly now: () => number;
}

/** Notifications claimed and sent at once by one instance. */
const BATCH = 16;
/** Longest wait between two attempts: 1 h. */
const RETRY_MAX_MS = 3_600_000;

export function createNotifications(options: CreateNotificationsOptions): Notifications {
  const { database, settings, now, log } = options;
  const channels = new NotificationChannelRepository(database, options.secrets, now);
  const outbox = new NotificationOutboxRepository(database);
  const guard = new NotifyAddressGuard({
    allow: parseAddressList(settings.notifyAllow).list,
    deny: parseAddressList(settings.notifyDeny).list,
    ownPorts: options.ownPorts,
  });
  const worker = new NotificationWorker(
    outbox,
    channels,
    new NotificationSender(guard, settings.notifyTimeoutMs, now),
    {
      instanceId: options.instanceId,
      batch: BATCH,
      // An attempt ends within the timeout; the margin covers the database writes around it.
      leaseMs: settings.notifyTimeoutMs * 2 + 10_000,
      maxAttempts: settings.notifyMaxAttempts,
      retryBaseMs: settings.notifyRetryBaseMs,
      retryMaxMs: Math.max(RETRY_MAX_MS, settings.notifyRetryBaseMs),
      pollMs: settings.notifyPollMs,
    },
    log,
    now,
  );
  const enqueuer = new NotificationEnqueuer(channels, outbox, options.lookups, {
    log,
    now,
    onEnqueued: () => worker.nudge(),
  });
  return { channels, outbox, guard, enqueuer, worker, observe: enqueuer.observe };
}
