import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Who acknowledged a raised device alarm and when (issue 29): both null while it is not
 * acknowledged. A clear deletes the row, so a raise after it starts unacknowledged again.
 */
export const addDeviceAlarmAcknowledgement: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('device_alarms').addColumn('acked_by', 'text').execute();
    await db.schema.alterTable('device_alarms').addColumn('acked_at', 'bigint').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('device_alarms').dropColumn('acked_at').execute();
    await db.schema.alterTable('device_alarms').dropColumn('acked_by').execute();
  },
};
