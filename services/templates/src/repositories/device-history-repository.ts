import { sql, type Kysely } from 'kysely';
import type { Database } from '@triad/db';
import {
  HISTORY_HOUR_MS,
  HISTORY_MINUTE_MS,
  type HistoryBucket,
  type HistoryPoint,
  type HistoryValue,
} from '../model/device-history.js';
import { HistorySeriesIds, type HistorySeriesKey } from './history-series-ids.js';
import { historyUpserts, type AggregateColumns, type HistoryUpserts, type RawColumns } from './history-upserts.js';
import type { TemplatesDatabase } from './templates-tables.js';

export type { HistorySeriesKey } from './history-series-ids.js';

/**
 * A batch of values with their series ids, column by column (row i is index i of each): typed
 * arrays, so a batch crosses to a worker thread without a copy per value. `value` is NaN where
 * the value has no number (stored numbers are finite).
 */
export interface HistoryRows {
  readonly series: Float64Array<ArrayBuffer>;
  readonly at: Float64Array<ArrayBuffer>;
  readonly value: Float64Array<ArrayBuffer>;
  readonly text: (string | null)[];
}

/** Series per SELECT or INSERT of series rows: far below both engines' parameter limits. */
const ROWS_PER_INSERT = 1_000;

/**
 * Kysely queries of the device value history (decision 0050): series ids, raw values, per-minute
 * numbers and the retention sweep. Series ids are assigned here (one more than the largest, a
 * race with another instance settled by the keys and a re-read), so both engines share one schema.
 * The batch upserts are SQL written once per shape (`history-upserts.ts`), not built per batch.
 */
export class DeviceHistoryRepository {
  readonly #db: Kysely<TemplatesDatabase>;
  /** Series known to exist. */
  readonly #ids = new HistorySeriesIds();
  readonly #upserts: HistoryUpserts;

  constructor(database: Database<TemplatesDatabase>) {
    this.#db = database.db;
    this.#upserts = historyUpserts(database.dialect);
  }

  /**
   * Stores a batch of values in one transaction: the raw rows (a second value of one series at one
   * millisecond replaces the first) and each minute's and hour's min, max, sum and count of the numbers.
   */
  async write(values: readonly HistoryValue[]): Promise<void> {
    if (values.length === 0) return;
    await this.writeRows(await this.rowsOf(values));
  }

  /** The values with their series ids, column by column, creating the series not stored yet. */
  async rowsOf(values: readonly HistoryValue[]): Promise<HistoryRows> {
    const ids = await this.#seriesIds(values);
    const rows: HistoryRows = {
      series: new Float64Array(ids),
      at: new Float64Array(values.length),
      value: new Float64Array(values.length),
      text: new Array<string | null>(values.length),
    };
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      rows.at[i] = v.at;
      rows.value[i] = v.value ?? NaN;
      rows.text[i] = v.text;
    }
    return rows;
  }

  /** `write` once the series ids are known (`rowsOf`); another connection may run it (`HistoryWriteThread`). */
  async writeRows(rows: HistoryRows): Promise<void> {
    const count = rows.at.length;
    if (count === 0) return;
    const raw: RawColumns = { series: [], at: [], value: [], text: [] };
    const minutes = new Aggregates();
    const hours = new Aggregates();
    const rawRows = new PairIndex(rows.at);
    for (let i = 0; i < count; i++) {
      const id = rows.series[i]!;
      const at = rows.at[i]!;
      const number = rows.value[i]!;
      const value = Number.isNaN(number) ? null : number;
      const row = rawRows.slot(id, at, raw.series.length);
      if (row === raw.series.length) {
        raw.series.push(id);
        raw.at.push(at);
        raw.value.push(value);
        raw.text.push(rows.text[i]!);
      } else {
        raw.value[row] = value;
        raw.text[row] = rows.text[i]!;
      }
      if (value === null) continue;
      minutes.add(id, at - (at % HISTORY_MINUTE_MS), value);
      hours.add(id, at - (at % HISTORY_HOUR_MS), value);
    }
    const queries = [
      ...this.#upserts.raw(raw),
      ...this.#upserts.aggregate('device_history_minute', minutes.columns),
      ...this.#upserts.aggregate('device_history_hour', hours.columns),
    ];
    await this.#db.transaction().execute(async (trx) => {
      for (const query of queries) await trx.executeQuery(query);
    });
  }

  /** The id of a series; undefined when nothing was ever stored for it. */
  async seriesId(key: HistorySeriesKey): Promise<number | undefined> {
    const known = this.#ids.get(key);
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
    this.#ids.set(key, Number(row.id));
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
      const ids: number[] = [];
      const missing = new Map<string, HistorySeriesKey>();
      for (const v of values) {
        const id = this.#ids.get(v);
        if (id === undefined) missing.set(keyOf(v), v);
        else ids.push(id);
      }
      if (missing.size === 0) return ids;
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
          { deviceId: r.device_id, setId: r.set_id, datapointId: r.datapoint_id, row: r.row_key },
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

/**
 * Rows of a batch by (series, time) without a key string per value: the key is one number,
 * series x span + time from the batch's earliest, while that stays a safe integer (a batch spans
 * seconds to minutes); a batch spanning longer falls back to string keys.
 */
class PairIndex {
  readonly #base: number;
  readonly #span: number;
  readonly #numbers = new Map<number, number>();
  readonly #strings = new Map<string, number>();

  constructor(times: Float64Array) {
    let min = Infinity;
    let max = -Infinity;
    for (const at of times) {
      if (at < min) min = at;
      if (at > max) max = at;
    }
    this.#base = min;
    // Series ids below 2^24 and times within 2^29 ms (6 days) of the earliest: products below 2^53.
    this.#span = max - min < 2 ** 29 ? 2 ** 29 : 0;
  }

  /** The row of (series, at) so far, or `next` (now taken by it) when it has none yet. */
  slot(series: number, at: number, next: number): number {
    if (this.#span > 0 && series < 2 ** 24) {
      const key = series * this.#span + (at - this.#base);
      const row = this.#numbers.get(key);
      if (row !== undefined) return row;
      this.#numbers.set(key, next);
      return next;
    }
    const key = `${series}:${at}`;
    const row = this.#strings.get(key);
    if (row !== undefined) return row;
    this.#strings.set(key, next);
    return next;
  }
}

/** The minute (or hour) rows of a batch: min, max, sum and count per series and start. */
class Aggregates {
  readonly columns: AggregateColumns = { series: [], at: [], min: [], max: [], sum: [], count: [] };
  /** Series -> start -> row; a series has one or two starts in a batch. */
  readonly #rows = new Map<number, Map<number, number>>();

  add(series: number, at: number, value: number): void {
    const columns = this.columns;
    let starts = this.#rows.get(series);
    if (starts === undefined) {
      starts = new Map();
      this.#rows.set(series, starts);
    }
    const row = starts.get(at);
    if (row === undefined) {
      starts.set(at, columns.series.length);
      columns.series.push(series);
      columns.at.push(at);
      columns.min.push(value);
      columns.max.push(value);
      columns.sum.push(value);
      columns.count.push(1);
      return;
    }
    if (value < columns.min[row]!) columns.min[row] = value;
    if (value > columns.max[row]!) columns.max[row] = value;
    columns.sum[row]! += value;
    columns.count[row]! += 1;
  }
}
