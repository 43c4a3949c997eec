import type { HistoryRange } from './history-range.js';
import './trend-chart.css';

/**
 * The range buttons above trend charts (a group named "Time range"): one button per range in
 * `ranges`, the chosen one pressed (`aria-pressed`); `onChoose` runs on every press, the chosen
 * one included, so a page can read its charts again up to now.
 */
export function RangePicker(props: {
  readonly ranges: readonly HistoryRange[];
  readonly chosen: HistoryRange['id'];
  readonly onChoose: (id: HistoryRange['id']) => void;
}) {
  return (
    <div class="range-picker" role="group" aria-label="Time range">
      {props.ranges.map((r) => (
        <button
          key={r.id}
          type="button"
          class={r.id === props.chosen ? 'primary' : undefined}
          aria-pressed={r.id === props.chosen}
          onClick={() => props.onChoose(r.id)}
        >
          {r.label}
        </button>
      ))}
    </div>
  );
}
