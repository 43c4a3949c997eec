import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Adds the alarm notifications of issue 28 (docs/decisions/0043):
 * - `nm_notification_channels`: where to send; the secrets sealed in `secrets_sealed`;
 * - `nm_notification_subscriptions`: which alarm changes a user wants on which channel;
 * - `nm_notifications`: the outbox, one row per channel and alarm change (`dedup_key` unique),
 *   claimed by one instance at a time (`claimed_by`, `claimed_until`);
 * - `nm_notification_attempts`: every delivery attempt, kept with its notification.
 */
export const notifications: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('nm_notification_channels')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('settings_json', 'text', (c) => c.notNull())
      .addColumn('secrets_sealed', 'text')
      .addColumn('secret_fields', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('nm_notification_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('min_severity', 'text', (c) => c.notNull())
      .addColumn('tags_json', 'text', (c) => c.notNull())
      .addColumn('alarm_ids_json', 'text', (c) => c.notNull())
      .addColumn('node_family_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('nm_notification_subscriptions_channel_idx')
      .on('nm_notification_subscriptions')
      .column('channel_id')
      .execute();
    await db.schema
      .createTable('nm_notifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('dedup_key', 'text', (c) => c.notNull().unique())
      .addColumn('alarm_json', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('nm_notifications_due_idx')
      .on('nm_notifications')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('nm_notifications_channel_idx')
      .on('nm_notifications')
      .columns(['channel_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('nm_notification_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('notification_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('ok', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('reply', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema
      .createIndex('nm_notification_attempts_notification_idx')
      .on('nm_notification_attempts')
      .column('notification_id')
      .execute();
  },
  async down(db: AnyDb) {
    for (const table of [
      'nm_notification_attempts',
      'nm_notifications',
      'nm_notification_subscriptions',
      'nm_notification_channels',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
