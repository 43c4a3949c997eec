import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/** Tags every installation knows at this point in history (not remembered as custom tags). */
const BUILT_IN_TAGS = ['alarm', 'dev', 'metric', 'op'];

/**
 * Adds `nm_alarms.list_json`, the alarm exactly as the lists show it (JSON text written by the
 * repository on every change), so a list reply reads one column per alarm instead of decoding
 * two dozen. NULL means "not built yet": the repository builds and stores it on first read, so
 * existing rows need no backfill here, and a later change of the presented shape only has to
 * reset the column to NULL. Also remembers, as known custom tags, the tags that stored alarms
 * already carry (the service did not record them before).
 */
export const alarmListView: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('nm_alarms').addColumn('list_json', 'text').execute();
    await db
      .insertInto('nm_custom_tags')
      .columns(['tag'])
      .expression(
        db
          .selectFrom('nm_alarm_tags')
          .select('tag')
          .distinct()
          .where('tag', 'not in', BUILT_IN_TAGS)
          .where('tag', 'not in', db.selectFrom('nm_custom_tags').select('tag')),
      )
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('nm_alarms').dropColumn('list_json').execute();
  },
};
