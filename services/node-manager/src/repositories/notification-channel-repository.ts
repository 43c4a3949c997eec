import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '@triad/db';
import type { SecretCipher } from '@triad/service-kit';
import type {
  ChannelRecord,
  ChannelSecrets,
  ChannelSettings,
  ChannelTarget,
  SubscriptionRecord,
} from '../model/notification-records.js';
import type {
  NodeManagerDatabase,
  NotificationChannelsTable,
  NotificationSubscriptionsTable,
} from './node-manager-tables.js';

/** A new subscription, as the caller asks for it. */
export type NewSubscription = Omit<SubscriptionRecord, 'id' | 'createdAt'>;

/**
 * Notification channels and the subscriptions to them. A channel's secrets are sealed as one JSON
 * object (`CHANNEL_SECRETS` purpose) and opened only for delivery (`findTarget`); lists carry their
 * field names, never their values.
 */
export class NotificationChannelRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #secrets: SecretCipher;
  readonly #now: () => number;

  constructor(database: Database<NodeManagerDatabase>, secrets: SecretCipher, now: () => number = Date.now) {
    this.#db = database.db;
    this.#secrets = secrets;
    this.#now = now;
  }

  async create(name: string, settings: ChannelSettings, secrets: ChannelSecrets): Promise<ChannelRecord> {
    const fields = (Object.keys(secrets) as (keyof ChannelSecrets)[]).filter((key) => secrets[key] !== undefined);
    const row = {
      id: randomUUID(),
      name,
      type: settings.type,
      settings_json: JSON.stringify(settings),
      secrets_sealed: fields.length === 0 ? null : this.#secrets.seal(JSON.stringify(secrets)),
      secret_fields: JSON.stringify(fields),
      created_at: this.#now(),
    };
    await this.#db.insertInto('nm_notification_channels').values(row).execute();
    return channelOf(row);
  }

  async list(): Promise<ChannelRecord[]> {
    const rows = await this.#db
      .selectFrom('nm_notification_channels')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(channelOf);
  }

  async find(id: string): Promise<ChannelRecord | undefined> {
    const row = await this.#db
      .selectFrom('nm_notification_channels')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && channelOf(row);
  }

  /** The channel with its secrets opened, for delivery. @throws SecretSealError when no key opens them. */
  async findTarget(id: string): Promise<ChannelTarget | undefined> {
    const row = await this.#db
      .selectFrom('nm_notification_channels')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const secrets =
      row.secrets_sealed === null ? {} : (JSON.parse(this.#secrets.open(row.secrets_sealed)) as ChannelSecrets);
    return { channel: channelOf(row), secrets };
  }

  /** Deletes a channel with its subscriptions, notifications and their attempts; false when there is none. */
  async remove(id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const notifications = trx.selectFrom('nm_notifications').select('id').where('channel_id', '=', id);
      await trx.deleteFrom('nm_notification_attempts').where('notification_id', 'in', notifications).execute();
      await trx.deleteFrom('nm_notifications').where('channel_id', '=', id).execute();
      await trx.deleteFrom('nm_notification_subscriptions').where('channel_id', '=', id).execute();
      const result = await trx.deleteFrom('nm_notification_channels').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Seals again, with `cipher`'s first key, every channel secret it does not seal yet (key rotation). */
  async resealSecrets(cipher: SecretCipher = this.#secrets): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('nm_notification_channels')
        .select(['id', 'secrets_sealed'])
        .where('secrets_sealed', 'is not', null)
        .execute();
      let count = 0;
      for (const row of rows) {
        if (row.secrets_sealed === null || cipher.isCurrent(row.secrets_sealed)) continue;
        const sealed = cipher.seal(cipher.open(row.secrets_sealed));
        await trx
          .updateTable('nm_notification_channels')
          .set({ secrets_sealed: sealed })
          .where('id', '=', row.id)
          .execute();
        count += 1;
      }
      return count;
    });
  }

  async subscribe(input: NewSubscription): Promise<SubscriptionRecord> {
    const row = {
      id: randomUUID(),
      username: input.username,
      channel_id: input.channelId,
      min_severity: input.minSeverity,
      tags_json: JSON.stringify(input.tags),
      alarm_ids_json: JSON.stringify(input.alarmIds),
      node_family_id: input.nodeFamilyId,
      created_at: this.#now(),
    };
    await this.#db.insertInto('nm_notification_subscriptions').values(row).execute();
    return subscriptionOf(row);
  }

  /** Subscriptions, of one user when `username` is given, oldest first. */
  async subscriptions(username?: string): Promise<SubscriptionRecord[]> {
    let query = this.#db.selectFrom('nm_notification_subscriptions').selectAll();
    if (username !== undefined) query = query.where('username', '=', username);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(subscriptionOf);
  }

  async findSubscription(id: string): Promise<SubscriptionRecord | undefined> {
    const row = await this.#db
      .selectFrom('nm_notification_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && subscriptionOf(row);
  }

  async unsubscribe(id: string): Promise<boolean> {
    const result = await this.#db.deleteFrom('nm_notification_subscriptions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function channelOf(row: Selectable<NotificationChannelsTable>): ChannelRecord {
  return {
    id: row.id,
    name: row.name,
    settings: JSON.parse(row.settings_json) as ChannelSettings,
    secretFields: JSON.parse(row.secret_fields) as (keyof ChannelSecrets)[],
    createdAt: Number(row.created_at),
  };
}

function subscriptionOf(row: Selectable<NotificationSubscriptionsTable>): SubscriptionRecord {
  return {
    id: row.id,
    username: row.username,
    channelId: row.channel_id,
    minSeverity: row.min_severity,
    tags: JSON.parse(row.tags_json) as string[],
    alarmIds: JSON.parse(row.alarm_ids_json) as string[],
    nodeFamilyId: row.node_family_id,
    createdAt: Number(row.created_at),
  };
}
