import type { DatapointResult } from '@triad/device-templates';
import { rowOf } from '../model/device-place.js';

/** A device collected here, as `presentDeviceMetrics` reads it. */
export interface MetricsDevice {
  readonly id: string;
  readonly name: string;
  readonly values: Iterable<DatapointResult>;
}

/** The history writer's counts, when history is kept. */
export interface MetricsHistoryStats {
  readonly queued: number;
  readonly written: number;
  readonly dropped: number;
}

/**
 * The Prometheus text (format 0.0.4) of the current device values collected by this instance
 * (decision 0050): `triad_device_value{device,name,set,datapoint[,row]}`, numbers as they are and
 * booleans as 0/1 (text and bad values have no sample). At most `maxSeries` samples, devices in id
 * order so the same ones stay; `triad_device_value_series_omitted` says how many did not fit.
 * With `history`, the history writer's queue, written and dropped counts.
 */
export function presentDeviceMetrics(
  devices: Iterable<MetricsDevice>,
  maxSeries: number,
  history: MetricsHistoryStats | undefined,
): string {
  const lines = [
    '# HELP triad_device_value Current value of a device datapoint collected by this instance (booleans as 0/1)',
    '# TYPE triad_device_value gauge',
  ];
  let omitted = 0;
  let series = 0;
  for (const device of [...devices].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    for (const result of device.values) {
      const value = numberOf(result.value);
      if (value === undefined) continue;
      if (series >= maxSeries) {
        omitted++;
        continue;
      }
      series++;
      const row = rowOf(result.tableIndex);
      const labels = [
        ['device', device.id],
        ['name', device.name],
        ['set', result.datapointSetId],
        ['datapoint', result.datapointId],
        ...(row === null ? [] : [['row', row]]),
      ]
        .map(([key, text]) => `${key}="${escapeLabel(text ?? '')}"`)
        .join(',');
      lines.push(`triad_device_value{${labels}} ${formatNumber(value)}`);
    }
  lines.push(
    '# HELP triad_device_value_series_omitted Device values left out of triad_device_value by ' +
      'TRIAD_DEVICE_METRICS_MAX_SERIES',
    '# TYPE triad_device_value_series_omitted gauge',
    `triad_device_value_series_omitted ${omitted}`,
  );
  if (history !== undefined)
    lines.push(
      '# HELP triad_device_history_queued Device values waiting to be written to the history',
      '# TYPE triad_device_history_queued gauge',
      `triad_device_history_queued ${history.queued}`,
      '# HELP triad_device_history_written_total Device values written to the history since start',
      '# TYPE triad_device_history_written_total counter',
      `triad_device_history_written_total ${history.written}`,
      '# HELP triad_device_history_dropped_total Device values not kept because the history queue was full',
      '# TYPE triad_device_history_dropped_total counter',
      `triad_device_history_dropped_total ${history.dropped}`,
    );
  return `${lines.join('\n')}\n`;
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toString();
}

/** Label values escape backslash, double quote and line feed (the exposition format). */
function escapeLabel(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
