/**
 * How an alarm's severity and state read: a word and an icon in the colour of its kind, so the
 * colour is never the only sign (docs/decisions/0038). Severities are X.733's; any other word the
 * API sends reads as it is, with the neutral look of `indeterminate`.
 */

/** X.733 severities from the most to the least urgent; the rank sorts the Severity column. */
export const SEVERITIES: readonly string[] = Object.freeze([
  'critical',
  'major',
  'minor',
  'warning',
  'indeterminate',
  'cleared',
]);

const ICONS: Readonly<Record<string, string>> = {
  critical: '⬢',
  major: '▲',
  minor: '◆',
  warning: '⚠',
  indeterminate: '?',
  cleared: '✓',
};

/** Sort rank of a severity: 0 for critical ... 5 for cleared; unknown words after them. */
export function severityRank(severity: string): number {
  const rank = SEVERITIES.indexOf(severity);
  return rank === -1 ? SEVERITIES.length : rank;
}

/** The severity's icon and word, coloured by `sev-<severity>` (`alarms-page.css`). */
export function SeverityBadge(props: { readonly severity: string }) {
  const known = SEVERITIES.includes(props.severity) ? props.severity : 'indeterminate';
  return (
    <span class={`badge sev-${known}`}>
      <span aria-hidden="true">{ICONS[known]}</span> {props.severity}
    </span>
  );
}

/** `new` (bold, with a dot) or `acknowledged` (a tick), with who acknowledged it and when. */
export function AlarmStateText(props: {
  readonly state: string;
  readonly ackInfo: { readonly user: string; readonly time: number } | null | undefined;
}) {
  const { state, ackInfo } = props;
  if (state !== 'acknowledged') {
    return (
      <span class="badge alarm-new">
        <span aria-hidden="true">●</span> {state}
      </span>
    );
  }
  return (
    <>
      <span class="badge alarm-acked">
        <span aria-hidden="true">✓</span> acknowledged
      </span>
      {ackInfo ? (
        <span class="who-when">
          by {ackInfo.user}, {whenText(ackInfo.time)}
        </span>
      ) : null}
    </>
  );
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** Moments already formatted: a list of 1,000 alarms formats each again on every sort. */
const formatted = new Map<number, string>();
const FORMATTED_KEPT = 5000;

/** A moment as people read it in their own locale (`02/12/2026, 16:04`). */
export function whenText(ms: number): string {
  let text = formatted.get(ms);
  if (text === undefined) {
    if (formatted.size >= FORMATTED_KEPT) formatted.clear();
    text = timeFormat.format(new Date(ms));
    formatted.set(ms, text);
  }
  return text;
}
