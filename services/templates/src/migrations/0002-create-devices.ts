import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Creates the device tables (issue 15). Times are integer milliseconds since the epoch.
 * - `devices`: a template version bound to one device, with its variables and its driver settings
 *   (secrets sealed with AES-GCM), its state and last error;
 * - `device_alarms`: the raised alarms, one row per datapoint, row and severity, so a restart
 *   neither loses nor repeats one;
 * - `device_events`: raise, clear and log events, keyed by a monotonic sequence (µs-based).
 */
export const createDevices: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('template_version', 'text', (c) => c.notNull())
      .addColumn('variables_json', 'text', (c) => c.notNull())
      .addColumn('drivers_json', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('last_error_json', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('device_alarms')
      .addColumn('device_id', 'text', (c) => c.notNull())
      .addColumn('datapoint_set_id', 'text', (c) => c.notNull())
      .addColumn('datapoint_id', 'text', (c) => c.notNull())
      .addColumn('row_key', 'text', (c) => c.notNull())
      .addColumn('severity', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('text_help', 'text', (c) => c.notNull())
      .addColumn('raised_at', 'bigint', (c) => c.notNull())
      .addColumn('value_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('device_alarms_pk', [
        'device_id',
        'datapoint_set_id',
        'datapoint_id',
        'row_key',
        'severity',
      ])
      .addForeignKeyConstraint('device_alarms_device_fk', ['device_id'], 'devices', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createTable('device_events')
      .addColumn('seq', 'bigint', (c) => c.primaryKey())
      .addColumn('device_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('body_json', 'text', (c) => c.notNull())
      .addForeignKeyConstraint('device_events_device_fk', ['device_id'], 'devices', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex('device_events_device_idx').on('device_events').columns(['device_id', 'seq']).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('device_events').execute();
    await db.schema.dropTable('device_alarms').execute();
    await db.schema.dropTable('devices').execute();
  },
};
