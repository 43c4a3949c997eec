import type { AnyTables } from '@triad/db';
import { sql, type Kysely, type Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Adds three things of issue 13:
 * - `nm_node_logs`: the log entries collected from each node (crash, supervisor and progress
 *   reports, error-level logger events, code loads), ordered by the node's event time in µs and
 *   kept within a bounded number per node by the repository;
 * - `nm_node_families.discover_cluster`: 1 (the default) when nodes that join a managed node's
 *   cluster later are added to the family;
 * - `nm_service_runs`: one row per running service process (host, pid), so maintenance commands
 *   such as `triad node-manager rotate-key` can refuse to run under a live service.
 */
export const logsDiscoveryAndRuns: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('nm_node_logs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('node_id', 'text', (c) => c.notNull())
      .addColumn('time_us', 'bigint', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('nm_node_logs_node_time_idx')
      .on('nm_node_logs')
      .columns(['node_id', 'time_us'])
      .execute();
    await db.schema
      .alterTable('nm_node_families')
      .addColumn('discover_cluster', 'integer', (c) => c.notNull().defaultTo(sql`1`))
      .execute();
    await db.schema
      .createTable('nm_service_runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('nm_service_runs').execute();
    await db.schema.alterTable('nm_node_families').dropColumn('discover_cluster').execute();
    await db.schema.dropTable('nm_node_logs').execute();
  },
};
