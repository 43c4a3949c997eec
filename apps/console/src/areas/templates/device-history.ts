/**
 * A device's trend as the device page draws it (`GET /devices/{id}/history`, decision 0050): the
 * datapoints that can be charted, the answer as a chart series (raw points, or each bucket's
 * average with its min-max band), and the chart's text alternative.
 */
import type { TimedValue } from '../../shell/timed-series.js';
import type { TrendSeries } from '../../shell/trend-chart.js';
import type { DeviceHistory, DeviceValue } from './device-wire.js';
import { formatNumber } from './device-words.js';
import type { TemplateOutline } from './template-outline.js';

/** A datapoint (and a table set's row) the trend can show. */
export interface TrendChoice {
  /** Unique among the choices: `set/datapoint/row`. */
  readonly key: string;
  readonly setId: string;
  readonly datapointId: string;
  /** A table set's row key; null in a map set. */
  readonly row: string | null;
  /** `Set alias: datapoint alias`, with ` row <key>` in a table set. */
  readonly label: string;
  /** BOOLEAN: stored as 0 and 1, drawn as steps, said as yes and no. */
  readonly onOff: boolean;
  readonly unit?: string;
}

/** The template data types the history keeps as numbers. */
const NUMERIC_TYPES = new Set(['BYTE', 'INTEGER', 'LONG', 'FLOAT', 'DOUBLE']);

/**
 * The datapoints of `outline` with numbers in their history: those typed BOOLEAN or numeric, and
 * those without a type (calculated ones) whose current value is a number or a boolean. A table
 * set offers one choice per row with a current value. In the template's order.
 */
export function trendChoices(outline: TemplateOutline, values: readonly DeviceValue[]): TrendChoice[] {
  return outline.sets.flatMap((set) =>
    set.datapoints.flatMap((datapoint): TrendChoice[] => {
      const current = values.filter((v) => v.datapointSetId === set.id && v.datapointId === datapoint.id);
      const type = datapoint.dataType;
      const sample = current.find((v) => v.value !== null)?.value;
      const onOff = type === 'BOOLEAN' || (type === undefined && typeof sample === 'boolean');
      if (!onOff && !NUMERIC_TYPES.has(type ?? '') && !(type === undefined && typeof sample === 'number')) return [];
      const rows = set.table ? [...new Set(current.flatMap((v) => (v.row === null ? [] : [v.row])))].sort() : [null];
      return rows.map((row) => ({
        key: `${set.id}/${datapoint.id}/${row ?? ''}`,
        setId: set.id,
        datapointId: datapoint.id,
        row,
        label: `${set.alias}: ${datapoint.alias}${row === null ? '' : ` row ${row}`}`,
        onOff,
        ...(datapoint.unit !== undefined ? { unit: datapoint.unit } : {}),
      }));
    }),
  );
}

/**
 * The chart series of a history answer: its raw numbers (text and bad values left out), or each
 * bucket's average at the bucket's start with the bucket's min and max as the band.
 */
export function historySeries(history: DeviceHistory, label: string): TrendSeries {
  if (history.step === 0)
    return {
      label,
      points: history.points.flatMap((p): TimedValue[] => (p.value === null ? [] : [[p.at, p.value]])),
    };
  return {
    label,
    points: history.buckets.map((b): TimedValue => [b.at, b.avg]),
    band: {
      min: history.buckets.map((b): TimedValue => [b.at, b.min]),
      max: history.buckets.map((b): TimedValue => [b.at, b.max]),
    },
  };
}

/** Decimals a trend shows of a number: fewer as it grows (`1,964`, `24.5`, `0.015`). */
function trendNumber(value: number): string {
  const size = Math.abs(value);
  const decimals = size >= 1000 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3;
  return new Intl.NumberFormat('en', { maximumFractionDigits: decimals }).format(value);
}

/**
 * A value of `choice` as the chart says it: yes and no for on/off, else a number with the unit,
 * its decimals fewer as it grows (an average of 1,963.979 ms reads 1,964 ms).
 */
export function trendValueFormat(choice: Pick<TrendChoice, 'onOff' | 'unit'>): (value: number) => string {
  if (!choice.onOff) return (value) => (choice.unit ? `${trendNumber(value)} ${choice.unit}` : trendNumber(value));
  return (value) => (value === 1 ? 'yes' : value === 0 ? 'no' : `${formatNumber(value * 100, 'en')} % yes`);
}

/** `30 s`, `5 min`, `1 h`, `1 d`: a bucket length. */
export function stepText(ms: number): string {
  const units: readonly (readonly [number, string])[] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  const [size, name] = units.find(([size]) => ms >= size && ms % size === 0) ?? [1, 'ms'];
  return `${formatNumber(ms / size, 'en')} ${name}`;
}

/**
 * The text alternative of a history answer: for raw values `latest, min, max, avg (n values)`;
 * for buckets the range's min, max and average over all its values, the last bucket's average,
 * and how many values in how many buckets of which length. Undefined when it holds no number.
 */
export function describeHistory(history: DeviceHistory, format: (value: number) => string): string | undefined {
  if (history.step === 0) {
    const numbers = history.points.flatMap((p) => (p.value === null ? [] : [p.value]));
    const latest = numbers[numbers.length - 1];
    if (latest === undefined) return undefined;
    const avg = numbers.reduce((sum, v) => sum + v, 0) / numbers.length;
    const count = `${formatNumber(numbers.length, 'en')} ${numbers.length === 1 ? 'value' : 'values'}`;
    return (
      `latest ${format(latest)}, min ${format(Math.min(...numbers))}, max ${format(Math.max(...numbers))}, ` +
      `average ${format(avg)} (${count})`
    );
  }
  const last = history.buckets[history.buckets.length - 1];
  if (last === undefined) return undefined;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  for (const b of history.buckets) {
    min = Math.min(min, b.min);
    max = Math.max(max, b.max);
    sum += b.avg * b.count;
    count += b.count;
  }
  const buckets = history.buckets.length;
  return (
    `min ${format(min)}, max ${format(max)}, average ${format(sum / count)}; last ${stepText(history.step)} ` +
    `average ${format(last.avg)} (${formatNumber(count, 'en')} values in ${formatNumber(buckets, 'en')} ` +
    `${buckets === 1 ? 'bucket' : 'buckets'} of ${stepText(history.step)}; the band shows each bucket's min to max)`
  );
}
