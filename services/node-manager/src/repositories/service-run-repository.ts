import { randomUUID } from 'node:crypto';
import type { Database } from '@triad/db';
import type { Kysely } from 'kysely';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/** A service process that said it uses the database, and has not said it stopped. */
export interface ServiceRun {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** ms since the epoch. */
  readonly startedAt: number;
}

/**
 * `nm_service_runs`: a running service registers itself (host, pid) and removes its row when it
 * closes, so maintenance commands can tell whether a service uses the database. A service killed
 * with `kill -9` leaves its row behind; `forget` removes such a stale row.
 */
export class ServiceRunRepository {
  readonly #db: Kysely<NodeManagerDatabase>;

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db;
  }

  /** Records this process as running; returns the run's id (for `forget`). */
  async register(host: string, pid: number, startedAt: number): Promise<string> {
    const id = randomUUID();
    await this.#db.insertInto('nm_service_runs').values({ id, host, pid, started_at: startedAt }).execute();
    return id;
  }

  /** Removes a run (the service closed, or it is known to be dead). Idempotent. */
  async forget(id: string): Promise<void> {
    await this.#db.deleteFrom('nm_service_runs').where('id', '=', id).execute();
  }

  /** Every recorded run, oldest first. */
  async list(): Promise<readonly ServiceRun[]> {
    const rows = await this.#db.selectFrom('nm_service_runs').selectAll().orderBy('started_at').execute();
    return rows.map((row) => ({ id: row.id, host: row.host, pid: row.pid, startedAt: Number(row.started_at) }));
  }
}
