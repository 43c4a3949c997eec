import { sql } from 'kysely';
import type { Database } from './database.js';

/** Where a PostgreSQL server stands in replication, as it says itself. */
export interface ReplicaStatus {
  /** The server is a standby replaying the primary's WAL (`pg_is_in_recovery()`). */
  readonly inRecovery: boolean;
  /**
   * Commit time (on the primary) of the last transaction the standby replayed
   * (`pg_last_xact_replay_timestamp()`); null on a primary or before the first replay.
   */
  readonly lastReplayAt: Date | null;
  /**
   * Seconds between the server's clock and `lastReplayAt`: how old the newest data it shows may
   * be. It grows while the primary is idle too (nothing new to replay), so read it together with
   * `caughtUp`. Null when `lastReplayAt` is. Zero on a primary.
   */
  readonly lagSeconds: number | null;
  /** Everything the standby received has been replayed (always true on a primary). */
  readonly caughtUp: boolean;
}

interface StatusRow {
  readonly in_recovery: boolean;
  readonly replayed_at: Date | string | null;
  readonly lag_seconds: number | string | null;
  readonly caught_up: boolean | null;
}

/** Asks a PostgreSQL server (a primary or a hot standby) how far it has replayed. */
export async function replicaStatus(database: Database): Promise<ReplicaStatus> {
  const { rows } = await sql<StatusRow>`
    select pg_is_in_recovery() as in_recovery,
      pg_last_xact_replay_timestamp() as replayed_at,
      case when pg_is_in_recovery()
        then extract(epoch from (clock_timestamp() - pg_last_xact_replay_timestamp()))
        else 0 end as lag_seconds,
      case when pg_is_in_recovery()
        then pg_last_wal_receive_lsn() is not distinct from pg_last_wal_replay_lsn()
          or pg_last_wal_receive_lsn() is null
        else true end as caught_up`.execute(database.db);
  const row = rows[0];
  if (!row) throw new Error('replicaStatus: the server returned no row');
  return {
    inRecovery: row.in_recovery,
    lastReplayAt: row.replayed_at === null ? null : new Date(row.replayed_at),
    lagSeconds: row.lag_seconds === null ? null : Math.max(0, Number(row.lag_seconds)),
    caughtUp: row.caught_up === true,
  };
}
