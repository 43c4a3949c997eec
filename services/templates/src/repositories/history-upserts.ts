import { CompiledQuery } from 'kysely';
import type { DialectName } from '@triad/db';

/** Raw rows of a batch, column by column (index i of every array is row i). */
export interface RawColumns {
  readonly series: number[];
  readonly at: number[];
  readonly value: (number | null)[];
  readonly text: (string | null)[];
}

/** Minute or hour rows of a batch, column by column. */
export interface AggregateColumns {
  readonly series: number[];
  readonly at: number[];
  readonly min: number[];
  readonly max: number[];
  readonly sum: number[];
  readonly count: number[];
}

export type AggregateTable = 'device_history_minute' | 'device_history_hour';

/**
 * The upserts of one history batch as SQL text written once per shape (decision 0050, "Scale"):
 * building the same INSERT through Kysely for every batch cost more than running it. Raw rows
 * replace a value of the same series and millisecond; aggregate rows merge min, max, sum and
 * count. One implementation per engine (CONTRIBUTING rule 2).
 */
export interface HistoryUpserts {
  raw(rows: RawColumns): CompiledQuery[];
  aggregate(table: AggregateTable, rows: AggregateColumns): CompiledQuery[];
}

export function historyUpserts(dialect: DialectName): HistoryUpserts {
  return dialect === 'postgres' ? new PostgresHistoryUpserts() : new SqliteHistoryUpserts();
}

const RAW_COLUMNS = 'series_id, at, value, text';
const RAW_UPDATE = 'on conflict (series_id, at) do update set value = excluded.value, text = excluded.text';
const AGGREGATE_COLUMNS = 'series_id, at, min, max, sum, count';

// CASE rather than least()/min(): the one spelling both engines share.
function aggregateUpdate(table: AggregateTable): string {
  return (
    `on conflict (series_id, at) do update set ` +
    `min = case when excluded.min < ${table}.min then excluded.min else ${table}.min end, ` +
    `max = case when excluded.max > ${table}.max then excluded.max else ${table}.max end, ` +
    `sum = ${table}.sum + excluded.sum, count = ${table}.count + excluded.count`
  );
}

/**
 * PostgreSQL: one statement per table and batch, whatever its size: the columns go as arrays and
 * `unnest` turns them back into rows (4 or 6 parameters; the SQL text never changes).
 */
class PostgresHistoryUpserts implements HistoryUpserts {
  readonly #raw =
    `insert into device_history_raw (${RAW_COLUMNS}) ` +
    `select * from unnest($1::integer[], $2::bigint[], $3::double precision[], $4::text[]) ${RAW_UPDATE}`;
  readonly #aggregates = new Map<AggregateTable, string>(
    (['device_history_minute', 'device_history_hour'] as const).map((table) => [
      table,
      `insert into ${table} (${AGGREGATE_COLUMNS}) select * from unnest($1::integer[], $2::bigint[], ` +
        `$3::double precision[], $4::double precision[], $5::double precision[], $6::integer[]) ` +
        aggregateUpdate(table),
    ]),
  );

  raw(rows: RawColumns): CompiledQuery[] {
    if (rows.series.length === 0) return [];
    return [CompiledQuery.raw(this.#raw, [rows.series, rows.at, rows.value, rows.text])];
  }

  aggregate(table: AggregateTable, rows: AggregateColumns): CompiledQuery[] {
    if (rows.series.length === 0) return [];
    const text = this.#aggregates.get(table)!;
    return [CompiledQuery.raw(text, [rows.series, rows.at, rows.min, rows.max, rows.sum, rows.count])];
  }
}

/**
 * Rows per statement on SQLite, largest first: a batch is cut into pieces of these sizes (below
 * the largest, one of each at most), so 9 SQL texts per table serve every batch and each stays
 * prepared in the connection's statement cache. 256 rows of 6 columns stay far below SQLite's
 * parameter limit.
 */
const SQLITE_PIECES = [256, 128, 64, 32, 16, 8, 4, 2, 1] as const;

/** SQLite: multi-row VALUES of a few fixed sizes, prepared once each (the statement cache). */
class SqliteHistoryUpserts implements HistoryUpserts {
  readonly #texts = new Map<string, string>();

  raw(rows: RawColumns): CompiledQuery[] {
    return this.#pieces('device_history_raw', RAW_COLUMNS, RAW_UPDATE, 4, rows.series.length, (params, i) => {
      params.push(rows.series[i], rows.at[i], rows.value[i], rows.text[i]);
    });
  }

  aggregate(table: AggregateTable, rows: AggregateColumns): CompiledQuery[] {
    const update = aggregateUpdate(table);
    return this.#pieces(table, AGGREGATE_COLUMNS, update, 6, rows.series.length, (params, i) => {
      params.push(rows.series[i], rows.at[i], rows.min[i], rows.max[i], rows.sum[i], rows.count[i]);
    });
  }

  #pieces(
    table: string,
    columns: string,
    update: string,
    width: number,
    total: number,
    push: (params: unknown[], row: number) => void,
  ): CompiledQuery[] {
    const queries: CompiledQuery[] = [];
    let row = 0;
    for (const size of SQLITE_PIECES)
      while (total - row >= size) {
        const params: unknown[] = [];
        for (const end = row + size; row < end; row++) push(params, row);
        queries.push(CompiledQuery.raw(this.#text(table, columns, update, width, size), params));
      }
    return queries;
  }

  #text(table: string, columns: string, update: string, width: number, size: number): string {
    const key = `${table}:${size}`;
    let text = this.#texts.get(key);
    if (text === undefined) {
      const tuple = `(${Array.from({ length: width }, () => '?').join(', ')})`;
      const tuples = Array.from({ length: size }, () => tuple).join(', ');
      text = `insert into ${table} (${columns}) values ${tuples} ${update}`;
      this.#texts.set(key, text);
    }
    return text;
  }
}
