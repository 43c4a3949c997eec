import { isUnreachable, type Database, type ReadReplicas } from '@triad/db';
import type { Kysely } from 'kysely';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { PostgresArticleTables, PostgresContentTables } from './postgres-content-tables.js';

/** Runs a read on some server of the store: the primary, or a streaming replica. */
export type ReadOn = <T>(read: (db: Kysely<PostgresContentTables>) => Promise<T>) => Promise<T>;

/**
 * Reads of one service instance on the replicas of `DATABASE_READ_URL` (decision 0025). The
 * instance keeps to one replica (chosen at random, so instances spread over the replicas) until
 * it cannot be reached: every read of a request then comes from one server, which replays the
 * primary's commits in order, so a request never sees an older catalog after a newer one. An
 * unreachable replica is marked failed (`ReadReplicas.markFailed`) and the read runs on the
 * primary; the next read picks a healthy replica again, or the primary while none is. A read the
 * replica cancelled because it conflicted with replaying the primary's changes runs again on the
 * primary (the replica stays in use).
 */
export function replicaReads(replicas: ReadReplicas<ContentTables>): ReadOn {
  const { primary, all } = replicas;
  let pinned: Database<ContentTables> | undefined = all[Math.floor(Math.random() * all.length)];
  const tables = (database: Database<ContentTables>) => database.db.withTables<PostgresArticleTables>();
  return async (read) => {
    if (pinned === undefined || pinned === primary) pinned = replicas.pick();
    const database = pinned;
    try {
      return await read(tables(database));
    } catch (error) {
      if (database === primary) throw error;
      if (isUnreachable(error)) {
        replicas.markFailed(database, error);
        pinned = undefined;
      } else if (!isRecoveryConflict(error)) throw error;
      return read(tables(primary));
    }
  };
}

/**
 * A hot standby cancels a query whose snapshot still needs rows the primary has removed, once
 * `max_standby_streaming_delay` has passed: SQLSTATE 40001 "conflict with recovery".
 */
function isRecoveryConflict(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '40001';
}
