import { workLeaseMigration, type AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

const workLeases = workLeaseMigration('nm');

/**
 * Adds what several node-manager instances on one PostgreSQL database share (issue 17,
 * docs/decisions/0027 and 0029):
 * - `nm_instances` (one heartbeat row per live instance) and `nm_work_leases` (which instance
 *   monitors each node, until when), from `workLeaseMigration('nm')`;
 * - `nm_ws_passes`: WebSocket passes by their SHA-256, so a pass issued by one instance opens a
 *   socket on another (ms since the epoch in `expires_at`).
 * On SQLite the tables stay empty: one instance owns every node and keeps its passes in memory.
 */
export const nodeLeases: Migration = {
  async up(db: AnyDb) {
    await workLeases.up(db);
    await db.schema
      .createTable('nm_ws_passes')
      .addColumn('pass_hash', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('nm_ws_passes').execute();
    await workLeases.down?.(db);
  },
};
