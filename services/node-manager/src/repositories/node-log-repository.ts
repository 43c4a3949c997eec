import { randomUUID } from 'node:crypto';
import type { Database } from '@triad/db';
import type { Kysely } from 'kysely';
import type { NodeManagerDatabase } from './node-manager-tables.js';
import { LOG_LEVELS, isLogLevel, type LogLevel } from '../model/log-level.js';
import type { NodeLogEntry } from '../model/node-log-entry.js';

/**
 * `nm_node_logs`: the log entries collected from each node, at most `maxPerNode` per node (the
 * oldest, by the node's event time, are dropped on every append).
 */
export class NodeLogRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #maxPerNode: number;

  constructor(database: Database<NodeManagerDatabase>, maxPerNode: number) {
    this.#db = database.db;
    this.#maxPerNode = maxPerNode;
  }

  /** Stores `entries` of node `nodeId`, then drops what exceeds the bound; one transaction. */
  async append(nodeId: string, entries: readonly NodeLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('nm_node_logs')
        .values(
          entries.map((e) => ({
            id: randomUUID(),
            node_id: nodeId,
            time_us: e.timeUs,
            level: e.level,
            kind: e.kind,
            text: e.text,
          })),
        )
        .execute();
      await trx
        .deleteFrom('nm_node_logs')
        .where('node_id', '=', nodeId)
        .where(
          'id',
          'not in',
          trx
            .selectFrom('nm_node_logs')
            .select('id')
            .where('node_id', '=', nodeId)
            .orderBy('time_us', 'desc')
            .orderBy('id', 'desc')
            .limit(this.#maxPerNode),
        )
        .execute();
    });
  }

  /** The newest `limit` entries of a node, newest first; with `level`, only that level and more severe. */
  async list(nodeId: string, limit: number, level?: LogLevel): Promise<readonly NodeLogEntry[]> {
    let query = this.#db
      .selectFrom('nm_node_logs')
      .select(['time_us', 'level', 'kind', 'text'])
      .where('node_id', '=', nodeId);
    if (level !== undefined) query = query.where('level', 'in', LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(level) + 1));
    const rows = await query.orderBy('time_us', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      timeUs: Number(row.time_us),
      level: isLogLevel(row.level) ? row.level : 'error',
      kind: row.kind,
      text: row.text,
    }));
  }
}
