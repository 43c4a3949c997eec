import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Creates every node-manager table. Times are integer milliseconds since the epoch (`bigint`);
 * flags are integers 0/1 so both engines read them alike; list-valued fields are JSON text.
 * Alarms are keyed by `event_us`, the event instant in microseconds, which the service keeps
 * unique and increasing, so it orders lists and pages them (`previous` calls) with one index.
 */
export const createNodeManager: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('nm_users')
      .addColumn('username', 'text', (c) => c.primaryKey())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('rights_json', 'text', (c) => c.notNull())
      .addColumn('tags_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('nm_front_pages')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('content_json', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('nm_node_families')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description_json', 'text', (c) => c.notNull())
      .addColumn('node_selection', 'text', (c) => c.notNull())
      .addColumn('bootstrap_strategy', 'text', (c) => c.notNull())
      .addColumn('bootstrap_strategy_opts_json', 'text', (c) => c.notNull())
      .addColumn('neighbors_json', 'text', (c) => c.notNull())
      .addColumn('plugins_opts_json', 'text', (c) => c.notNull())
      .addColumn('deleted', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('nm_node_families_name_idx')
      .on('nm_node_families')
      .columns(['name', 'deleted'])
      .execute();
    await db.schema
      .createTable('nm_nodes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('node_family_id', 'text', (c) => c.notNull())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('cookie', 'text', (c) => c.notNull())
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('tref', 'text', (c) => c.notNull())
      .addColumn('plugins_opts_json', 'text', (c) => c.notNull())
      .addColumn('deleted', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('nm_nodes_name_idx').on('nm_nodes').columns(['name', 'deleted']).execute();
    await db.schema.createIndex('nm_nodes_family_idx').on('nm_nodes').columns(['node_family_id', 'deleted']).execute();
    await db.schema
      .createTable('nm_plugins')
      .addColumn('node_id', 'text', (c) => c.notNull())
      .addColumn('plugin_name', 'text', (c) => c.notNull())
      .addColumn('plugin_apps', 'text', (c) => c.notNull())
      .addColumn('plugin_state', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('nm_plugins_pk', ['node_id', 'plugin_name'])
      .execute();
    await db.schema
      .createTable('nm_alarms')
      .addColumn('event_us', 'bigint', (c) => c.primaryKey())
      .addColumn('alarm_id', 'text', (c) => c.notNull())
      .addColumn('node_id', 'text', (c) => c.notNull())
      .addColumn('node_name', 'text', (c) => c.notNull())
      .addColumn('custom', 'text', (c) => c.notNull())
      .addColumn('elarm_server', 'text', (c) => c.notNull())
      .addColumn('raw_src', 'text', (c) => c.notNull())
      .addColumn('alarm_type_json', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('probable_cause', 'text', (c) => c.notNull())
      .addColumn('proposed_repair_action', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('additional_information', 'text', (c) => c.notNull())
      .addColumn('correlated_events', 'text', (c) => c.notNull())
      .addColumn('comments_json', 'text', (c) => c.notNull())
      .addColumn('trend_json', 'text', (c) => c.notNull())
      .addColumn('threshold_json', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('ack_user', 'text')
      .addColumn('ack_time', 'bigint')
      .addColumn('tags_json', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('raised_at', 'bigint', (c) => c.notNull())
      .addColumn('cleared_at', 'bigint')
      .execute();
    await db.schema.createIndex('nm_alarms_active_idx').on('nm_alarms').columns(['active', 'event_us']).execute();
    await db.schema
      .createIndex('nm_alarms_node_idx')
      .on('nm_alarms')
      .columns(['node_id', 'active', 'event_us'])
      .execute();
    await db.schema.createIndex('nm_alarms_identity_idx').on('nm_alarms').columns(['alarm_id', 'active']).execute();
    await db.schema.createIndex('nm_alarms_raised_idx').on('nm_alarms').column('raised_at').execute();
    await db.schema
      .createTable('nm_alarm_tags')
      .addColumn('event_us', 'bigint', (c) => c.notNull())
      .addColumn('tag', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('nm_alarm_tags_pk', ['event_us', 'tag'])
      .execute();
    await db.schema
      .createTable('nm_bookmarks')
      .addColumn('title', 'text', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('position', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('nm_custom_tags')
      .addColumn('tag', 'text', (c) => c.primaryKey())
      .execute();
    await db.schema
      .createTable('nm_crash_logs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('node_id', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('nm_crash_logs_at_idx').on('nm_crash_logs').column('recorded_at').execute();
  },
  async down(db: AnyDb) {
    for (const table of [
      'nm_crash_logs',
      'nm_custom_tags',
      'nm_bookmarks',
      'nm_alarm_tags',
      'nm_alarms',
      'nm_plugins',
      'nm_nodes',
      'nm_node_families',
      'nm_front_pages',
      'nm_users',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
