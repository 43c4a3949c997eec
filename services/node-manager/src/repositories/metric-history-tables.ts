/** Kysely view of the metric history tables (migration 0004). Times are ms since the epoch. */
export type MetricHistoryTables = {
  nm_metric_series: MetricSeriesTable;
  nm_metric_raw: MetricRawTable;
  nm_metric_minute: MetricMinuteTable;
};

/** PostgreSQL returns `bigint` as a string; SQLite as a number. */
type BigIntColumn = number | string;

/** One series: a node and a series name such as `erlang_vm_memory_bytes_total{kind="system"}`. */
export interface MetricSeriesTable {
  id: number;
  node_id: string;
  name: string;
}

/** Every sample as taken. */
export interface MetricRawTable {
  series_id: number;
  at: BigIntColumn;
  value: number;
}

/** Per series and minute (`at` the minute's start): sum and count of the samples in it. */
export interface MetricMinuteTable {
  series_id: number;
  at: BigIntColumn;
  sum: number;
  count: number;
}
