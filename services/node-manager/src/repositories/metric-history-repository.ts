import { sql, type Kysely } from 'kysely';
import { isUniqueViolation, type Database } from '@triad/db';
import type { MetricHistoryTables } from './metric-history-tables.js';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/** One value of one series at one instant. */
export interface HistoryPoint {
  readonly name: string;
  readonly value: number;
}

/** `[timeMs, value]`, as the history endpoint answers it. */
export type TimedValue = readonly [number, number];

/** The two resolutions the history keeps. */
export type HistoryResolution = 'raw' | 'minute';

/** Length of a downsampled bucket, ms. */
export const MINUTE_MS = 60_000;

/**
 * Kysely queries of the metric history: series ids, raw samples and per-minute sums. Series ids
 * are assigned here (one more than the largest), so both engines share one schema; a race with
 * another process is settled by the unique key and a re-read.
 */
export class MetricHistoryRepository {
  readonly #db: Kysely<NodeManagerDatabase & MetricHistoryTables>;
  /** `node_id \0 name` -> series id, for series known to exist. */
  readonly #ids = new Map<string, number>();
  /** Creations of series, one at a time (ids are max + 1). */
  #creating: Promise<unknown> = Promise.resolve();

  constructor(database: Database<NodeManagerDatabase>) {
    this.#db = database.db.withTables<MetricHistoryTables>();
  }

  /** Stores one sample of a node (every point at `at`): raw rows and the minute sums, in one transaction. */
  async record(nodeId: string, at: number, points: readonly HistoryPoint[]): Promise<void> {
    if (points.length === 0) return;
    const ids = await this.#seriesIds(
      nodeId,
      points.map((p) => p.name),
    );
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('nm_metric_raw')
        .values(points.map((p, i) => ({ series_id: ids[i]!, at, value: p.value })))
        .onConflict((oc) => oc.columns(['series_id', 'at']).doNothing())
        .execute();
      await trx
        .insertInto('nm_metric_minute')
        .values(points.map((p, i) => ({ series_id: ids[i]!, at: minute, sum: p.value, count: 1 })))
        .onConflict((oc) =>
          oc.columns(['series_id', 'at']).doUpdateSet((eb) => ({
            sum: eb('nm_metric_minute.sum', '+', eb.ref('excluded.sum')),
            count: eb('nm_metric_minute.count', '+', eb.ref('excluded.count')),
          })),
        )
        .execute();
    });
  }

  /** Whether the node has a series of this name. */
  async hasSeries(nodeId: string, name: string): Promise<boolean> {
    return (await this.#findId(nodeId, name)) !== undefined;
  }

  /** Every series name stored, sorted. */
  async names(): Promise<string[]> {
    const rows = await this.#db.selectFrom('nm_metric_series').select('name').distinct().orderBy('name').execute();
    return rows.map((r) => r.name);
  }

  /**
   * The points of one series with `from <= time <= to`, oldest first: raw samples, or minute
   * averages (time = the minute's start). Empty for an unknown series.
   */
  async read(
    nodeId: string,
    name: string,
    from: number,
    to: number,
    resolution: HistoryResolution,
  ): Promise<TimedValue[]> {
    const id = await this.#findId(nodeId, name);
    if (id === undefined) return [];
    if (resolution === 'raw') {
      const rows = await this.#db
        .selectFrom('nm_metric_raw')
        .select(['at', 'value'])
        .where('series_id', '=', id)
        .where('at', '>=', from)
        .where('at', '<=', to)
        .orderBy('at')
        .execute();
      return rows.map((r) => [Number(r.at), Number(r.value)] as const);
    }
    const rows = await this.#db
      .selectFrom('nm_metric_minute')
      .select(['at', 'sum', 'count'])
      .where('series_id', '=', id)
      .where('at', '>=', from)
      .where('at', '<=', to)
      .orderBy('at')
      .execute();
    return rows.map((r) => [Number(r.at), Number(r.sum) / Number(r.count)] as const);
  }

  /** Deletes raw samples older than `rawBefore` and minute sums older than `minuteBefore`; returns rows deleted. */
  async prune(rawBefore: number, minuteBefore: number): Promise<number> {
    const raw = await this.#db.deleteFrom('nm_metric_raw').where('at', '<', rawBefore).executeTakeFirst();
    const minute = await this.#db.deleteFrom('nm_metric_minute').where('at', '<', minuteBefore).executeTakeFirst();
    return Number(raw.numDeletedRows) + Number(minute.numDeletedRows);
  }

  async #findId(nodeId: string, name: string): Promise<number | undefined> {
    const key = `${nodeId}\0${name}`;
    const known = this.#ids.get(key);
    if (known !== undefined) return known;
    const row = await this.#db
      .selectFrom('nm_metric_series')
      .select('id')
      .where('node_id', '=', nodeId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (row) this.#ids.set(key, Number(row.id));
    return row ? Number(row.id) : undefined;
  }

  /** The ids of a node's series, creating the missing ones. */
  async #seriesIds(nodeId: string, names: readonly string[]): Promise<number[]> {
    const ids = names.map((name) => this.#ids.get(`${nodeId}\0${name}`));
    if (ids.every((id) => id !== undefined)) return ids;
    const created = this.#creating.then(() => this.#createSeries(nodeId, names));
    this.#creating = created.catch(() => {});
    return created;
  }

  async #createSeries(nodeId: string, names: readonly string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) {
      for (let attempt = 0; ; attempt++) {
        const found = await this.#findId(nodeId, name);
        if (found !== undefined) {
          ids.push(found);
          break;
        }
        try {
          await this.#db
            .insertInto('nm_metric_series')
            .values({
              id: sql<number>`(select coalesce(max(id), 0) + 1 from nm_metric_series)`,
              node_id: nodeId,
              name,
            })
            .execute();
        } catch (error) {
          // Another process took the id or the name first: read again.
          if (!isUniqueViolation(error) || attempt >= 5) throw error;
        }
      }
    }
    return ids;
  }
}
