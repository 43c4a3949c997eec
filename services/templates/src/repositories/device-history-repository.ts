import { sql, type Kysely } from 'kysely';
import type { Database } from '@triad/db';
import {
  HISTORY_HOUR_MS,
  HISTORY_MINUTE_MS,
  type HistoryBucket,
  type HistoryPoint,
  type HistoryValue,
} from '../model/device-history.js';
import type { TemplatesDatabase } from './templates-tables.js';

/** Rows per INSERT: 1,000 rows of at most 6 columns stays far below both engines' parameter limits. */
const ROWS_PER_INSERT = 1_000;

/** A series' identity: device, set, datapoint, row. */
export interface HistorySeriesKey {
  readonly deviceId: string;
  readonly setId: string;
  readonly datapointId: string;
  readonly row: string;
}

/**
 * Kysely queries of the device value history (decision 0050): series ids, raw values, per-minute
 * numbers and the retention sweep. Series ids are assigned here (one more than the largest, a
 * race with another instance settled by the keys and a re-read), so both engines share one schema.
 */
export class DeviceHistoryRepository {
  readonly #db: Kysely<TemplatesDatabase>;
  /** Series key -> id, for series known to exist. */
  readonly #ids = new Map<string, number>();

  constructor(database: Database<TemplatesDatabase>) {
    this.#db = database.db;
  }

  /**
   * Stores a batch of values in one transaction: the raw rows (a second value of one series at one
   * millisecond replaces the first) and each minute's min, max, sum and count of the numbers.
   */
  async write(values: readonly HistoryValue[]): Promise<void> {
    if (values.length === 0) return;
    const ids = await this.#seriesIds(values);
    const raw = new Map<string, { series_id: number; at: number; value: number | null; text: string | null }>();
    const minutes = new Map<string, AggregateRow>();
    const hours = new Map<string, AggregateRow>();
    values.forEach((v, i) => {
      const id = ids[i]!;
      raw.set(`${id}:${v.at}`, { series_id: id, at: v.at, value: v.value, text: v.text });
      if (v.value === null) return;
      aggregate(minutes, id, Math.floor(v.at / HISTORY_MINUTE_MS) * HISTORY_MINUTE_MS, v.value);
      aggregate(hours, id, Math.floor(v.at / HISTORY_HOUR_MS) * HISTORY_HOUR_MS, v.value);
    });
    await this.#db.transaction().execute(async (trx) => {
      for (const rows of chunks([...raw.values()]))
        await trx
          .insertInto('device_history_raw')
          .values(rows)
          .onConflict((oc) =>
            oc.columns(['series_id', 'at']).doUpdateSet((eb) => ({
              value: eb.ref('excluded.value'),
              text: eb.ref('excluded.text'),
            })),
          )
          .execute();
      for (const [table, rows] of [
        ['device_history_minute', minutes],
        ['device_history_hour', hours],
      ] as const)
        for (const chunk of chunks([...rows.values()]))
          await trx
            .insertInto(table)
            .values(chunk)
            .onConflict((oc) =>
              oc.columns(['series_id', 'at']).doUpdateSet(() => ({
                // CASE rather than least()/min(): the one spelling both engines share.
                min: sql<number>`case when excluded.min < ${sql.table(table)}.min
                  then excluded.min else ${sql.table(table)}.min end`,
                max: sql<number>`case when excluded.max > ${sql.table(table)}.max
                  then excluded.max else ${sql.table(table)}.max end`,
                sum: sql<number>`${sql.table(table)}.sum + excluded.sum`,
                count: sql<number>`${sql.table(table)}.count + excluded.count`,
              })),
            )
            .execute();
    });
  }

  /** The id of a series; undefined when nothing was ever stored for it. */
  async seriesId(key: HistorySeriesKey): Promise<number | undefined> {
    const known = this.#ids.get(keyOf(key));
    if (known !== undefined) return known;
    const row = await this.#db
      .selectFrom('device_history_series')
      .select('id')
      .where('device_id', '=', key.deviceId)
      .where('set_id', '=', key.setId)
      .where('datapoint_id', '=', key.datapointId)
      .where('row_key', '=', key.row)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    this.#ids.set(keyOf(key), Number(row.id));
    return Number(row.id);
  }

  /** Raw values of a series with `from <= at <= to`, oldest first, at most `limit`. */
  async points(seriesId: number, from: number, to: number, limit: number): Promise<HistoryPoint[]> {
    const rows = await this.#db
      .selectFrom('device_history_raw')
      .select(['at', 'value', 'text'])
      .where('series_id', '=', seriesId)
      .where('at', '>=', from)
      .where('at', '<=', to)
      .orderBy('at')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ at: Number(r.at), value: r.value === null ? null : Number(r.value), text: r.text }));
  }

  /**
   * The numbers of a series in buckets of `step` ms (aligned to the epoch) with `from <= at <= to`,
   * oldest first, from the raw or the minute table; buckets without numbers are left out.
   */
  async buckets(
    seriesId: number,
    source: 'raw' | 'minute',
    from: number,
    to: number,
    step: number,
  ): Promise<HistoryBucket[]> {
    // Integer arithmetic on both engines: `at - at % step` is the bucket's start.
    const bucket = sql<number>`at - at % ${sql.lit(step)}`;
    const rows =
      source === 'raw'
        ? await this.#db
            .selectFrom('device_history_raw')
            .select((eb) => [
              bucket.as('bucket'),
              eb.fn.min<number>('value').as('min'),
              eb.fn.max<number>('value').as('max'),
              eb.fn.sum<number>('value').as('sum'),
              eb.fn.count<number>('value').as('count'),
            ])
            .where('series_id', '=', seriesId)
            .where('at', '>=', from)
            .where('at', '<=', to)
            .where('value', 'is not', null)
            .groupBy(sql`1`)
            .orderBy(sql`1`)
            .execute()
        : await this.#db
            // Buckets of whole hours from the hour rows, others from the minute rows.
            .selectFrom(step % HISTORY_HOUR_MS === 0 ? 'device_history_hour' : 'device_history_minute')
            .select((eb) => [
              bucket.as('bucket'),
              eb.fn.min<number>('min').as('min'),
              eb.fn.max<number>('max').as('max'),
              eb.fn.sum<number>('sum').as('sum'),
              eb.fn.sum<number>('count').as('count'),
            ])
            .where('series_id', '=', seriesId)
            .where('at', '>=', from)
            .where('at', '<=', to)
            .groupBy(sql`1`)
            .orderBy(sql`1`)
            .execute();
    return rows.map((r) => ({
      at: Number(r.bucket),
      min: Number(r.min),
      max: Number(r.max),
      avg: Number(r.sum) / Number(r.count),
      count: Number(r.count),
    }));
  }

  /**
   * Deletes at most `limit` raw rows older than `rawBefore`, and at most `limit` minute rows and
   * `limit` hour rows older than `minuteBefore`; returns how many rows it deleted (below `limit`:
   * nothing more is due).
   */
  async sweep(rawBefore: number, minuteBefore: number, limit: number): Promise<number> {
    let deleted = 0;
    for (const [table, before] of [
      ['device_history_raw', rawBefore],
      ['device_history_minute', minuteBefore],
      ['device_history_hour', minuteBefore],
    ] as const) {
      // Row values IN a bounded subquery: one index range per batch on both engines.
      const result = await sql`delete from ${sql.table(table)} where (series_id, at) in (
          select series_id, at from ${sql.table(table)} where at < ${before} limit ${limit})`.execute(this.#db);
      deleted += Number(result.numAffectedRows ?? 0);
    }
    return deleted;
  }

  /** The ids of the values' series, in order, creating the missing ones. */
  async #seriesIds(values: readonly HistoryValue[]): Promise<number[]> {
    for (let attempt = 0; ; attempt++) {
      const missing = new Map<string, HistorySeriesKey>();
      for (const v of values) if (!this.#ids.has(keyOf(v))) missing.set(keyOf(v), v);
      if (missing.size === 0) return values.map((v) => this.#ids.get(keyOf(v))!);
      if (attempt > 0) await this.#create([...missing.values()]);
      await this.#load([...new Set([...missing.values()].map((k) => k.deviceId))]);
      if (attempt >= 5) throw new Error(`history series could not be created for ${missing.size} datapoints`);
    }
  }

  /** Reads every series of these devices into the id cache. */
  async #load(deviceIds: readonly string[]): Promise<void> {
    for (let i = 0; i < deviceIds.length; i += ROWS_PER_INSERT) {
      const rows = await this.#db
        .selectFrom('device_history_series')
        .selectAll()
        .where('device_id', 'in', deviceIds.slice(i, i + ROWS_PER_INSERT))
        .execute();
      for (const r of rows)
        this.#ids.set(
          keyOf({ deviceId: r.device_id, setId: r.set_id, datapointId: r.datapoint_id, row: r.row_key }),
          Number(r.id),
        );
    }
  }

  /** Inserts series with ids after the largest; a key or id taken by another instance meanwhile is skipped. */
  async #create(keys: readonly HistorySeriesKey[]): Promise<void> {
    for (const part of chunks(keys)) {
      const top = await this.#db
        .selectFrom('device_history_series')
        .select((eb) => eb.fn.max<number | null>('id').as('top'))
        .executeTakeFirst();
      const first = Number(top?.top ?? 0) + 1;
      await this.#db
        .insertInto('device_history_series')
        .values(
          part.map((k, i) => ({
            id: first + i,
            device_id: k.deviceId,
            set_id: k.setId,
            datapoint_id: k.datapointId,
            row_key: k.row,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

function keyOf(key: HistorySeriesKey): string {
  return `${key.deviceId}\u0000${key.setId}\u0000${key.datapointId}\u0000${key.row}`;
}

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += ROWS_PER_INSERT) yield items.slice(i, i + ROWS_PER_INSERT);
}

interface AggregateRow {
  series_id: number;
  at: number;
  min: number;
  max: number;
  sum: number;
  count: number;
}

/** Adds `value` to the row of series `id` at `at` in `rows`. */
function aggregate(rows: Map<string, AggregateRow>, id: number, at: number, value: number): void {
  const key = `${id}:${at}`;
  const row = rows.get(key);
  if (row === undefined) rows.set(key, { series_id: id, at, min: value, max: value, sum: value, count: 1 });
  else {
    row.min = Math.min(row.min, value);
    row.max = Math.max(row.max, value);
    row.sum += value;
    row.count++;
  }
}
