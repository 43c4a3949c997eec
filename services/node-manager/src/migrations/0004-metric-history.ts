import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Metric history (monitoring/metric-history.ts). `nm_metric_series` names each series of a node
 * once (`id` assigned by the repository, so both engines share one schema); samples refer to it
 * by integer, which keeps a raw row to three numbers. `nm_metric_raw` holds every sample,
 * `nm_metric_minute` the sum and count of each series per minute (filled as samples arrive, so
 * an average needs no later pass). Both are keyed by `(series_id, at)`: a range query of one
 * series reads one index range.
 */
export const metricHistory: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('nm_metric_series')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('node_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addUniqueConstraint('nm_metric_series_node_name_key', ['node_id', 'name'])
      .execute();
    await db.schema
      .createTable('nm_metric_raw')
      .addColumn('series_id', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('value', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('nm_metric_raw_pkey', ['series_id', 'at'])
      .execute();
    await db.schema
      .createTable('nm_metric_minute')
      .addColumn('series_id', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('sum', 'double precision', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('nm_metric_minute_pkey', ['series_id', 'at'])
      .execute();
    // Pruning deletes by age across every series.
    await db.schema.createIndex('nm_metric_raw_at_idx').on('nm_metric_raw').column('at').execute();
    await db.schema.createIndex('nm_metric_minute_at_idx').on('nm_metric_minute').column('at').execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('nm_metric_minute').execute();
    await db.schema.dropTable('nm_metric_raw').execute();
    await db.schema.dropTable('nm_metric_series').execute();
  },
};
