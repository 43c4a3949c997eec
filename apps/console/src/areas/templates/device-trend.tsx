/**
 * The device page's trend: one datapoint (a select of the numeric and on/off ones) over 1 h, 24 h,
 * 7 d or 30 d from `GET /devices/{id}/history`, drawn by the shell's `TrendChart` with each
 * bucket's min-max band when the service answers in buckets, its caption the text alternative.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { HISTORY_RANGES, rangeBounds, type HistoryRange } from '../../shell/history-range.js';
import { RangePicker } from '../../shell/range-picker.js';
import { TrendChart } from '../../shell/trend-chart.js';
import { describeHistory, historySeries, trendChoices, trendValueFormat, type TrendChoice } from './device-history.js';
import type { DeviceHistory, DeviceValue } from './device-wire.js';
import { readHistory } from './devices-api.js';
import type { TemplateOutline } from './template-outline.js';
import { TemplatesApiError } from './templates-api.js';
import type { TokenPrompt } from './write-token.js';

/** Why the history could not be read, in words, saying what to do. */
export function historyErrorText(reason: unknown): string {
  const detail = reason instanceof Error ? reason.message : String(reason);
  if (!(reason instanceof TemplatesApiError)) return `the service did not answer (${detail}). Try again.`;
  if (reason.status === 401) return `the service needs a token to read device history (${detail}).`;
  if (reason.status === 403) return `this token may not read devices (${detail}). Give one that may.`;
  if (reason.status >= 500)
    return `the service failed (HTTP ${reason.status}: ${detail}). Try again; if it stays, see the service's log.`;
  return `${detail} (HTTP ${reason.status}).`;
}

/** What the chart shows: the answer for a choice and range, or why there is none. */
type Loaded =
  | { readonly kind: 'history'; readonly key: string; readonly history: DeviceHistory }
  | { readonly kind: 'error'; readonly key: string; readonly message: string };

export function DeviceTrend(props: {
  readonly deviceId: string;
  readonly outline: TemplateOutline;
  readonly values: readonly DeviceValue[];
  readonly token: string | undefined;
  readonly asks: TokenPrompt['asks'];
}) {
  const { deviceId, outline, values, token, asks } = props;
  const choices = useMemo(() => trendChoices(outline, values), [outline, values]);
  const [chosenKey, setChosenKey] = useState<string | undefined>();
  const choice: TrendChoice | undefined = choices.find((c) => c.key === chosenKey) ?? choices[0];
  const [rangeId, setRangeId] = useState<HistoryRange['id']>('1h');
  const [now, setNow] = useState(() => Date.now());
  const range = HISTORY_RANGES.find((r) => r.id === rangeId) ?? HISTORY_RANGES[0];
  const { from, to } = range ? rangeBounds(range, now) : { from: now, to: now };
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const requestKey = choice ? `${deviceId}\u0000${choice.key}\u0000${from}\u0000${to}` : '';
  useEffect(() => {
    if (!choice) return;
    const controller = new AbortController();
    const query = {
      set: choice.setId,
      datapoint: choice.datapointId,
      from: String(from),
      to: String(to),
      ...(choice.row === null ? {} : { row: choice.row }),
    };
    readHistory(deviceId, query, token, controller.signal).then(
      (history) => setLoaded({ kind: 'history', key: requestKey, history }),
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        // A 401 or 403 also shows the token field; once given, the history is read again with it.
        asks(reason, () => setNow(Date.now()));
        setLoaded({ kind: 'error', key: requestKey, message: historyErrorText(reason) });
      },
    );
    return () => controller.abort();
  }, [requestKey, token]);
  const format = useMemo(() => trendValueFormat(choice ?? { onOff: false }), [choice?.onOff, choice?.unit]);
  const current = loaded?.key === requestKey ? loaded : undefined;
  const history = current?.kind === 'history' ? current.history : undefined;
  const series = useMemo(
    () => (history && choice ? [historySeries(history, choice.label)] : undefined),
    [history, choice?.label],
  );
  return (
    <section class="tpl-trend" aria-labelledby="tpl-trend-title">
      <h2 id="tpl-trend-title">Trend</h2>
      {choice === undefined ? (
        <p>No datapoint of this device holds numbers or on/off values to chart.</p>
      ) : (
        <>
          <div class="tpl-trend-controls">
            <label>
              Datapoint
              <select value={choice.key} onChange={(event) => setChosenKey(event.currentTarget.value)}>
                {choices.map((c) => (
                  <option key={c.key} value={c.key}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
            <RangePicker
              ranges={HISTORY_RANGES}
              chosen={rangeId}
              onChoose={(id) => {
                setRangeId(id);
                setNow(Date.now());
              }}
            />
          </div>
          <TrendChart
            id="tpl-trend"
            title={choice.unit ? `${choice.label} (${choice.unit})` : choice.label}
            series={series}
            error={current?.kind === 'error' ? current.message : undefined}
            from={from}
            to={to}
            format={format}
            steps={choice.onOff}
            empty="No values recorded yet in this range."
            describe={() => (history ? (describeHistory(history, format) ?? '') : '')}
          />
        </>
      )}
    </section>
  );
}
