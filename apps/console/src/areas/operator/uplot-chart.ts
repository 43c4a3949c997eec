/**
 * The uPlot drawing of the node page's charts. Imported dynamically by `metric-chart.tsx`, so
 * uPlot and its styles load only when a node page shows a chart.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AlignedSeries } from './node-history.js';

/** A drawn chart: resize it to its container, or remove it. */
export interface DrawnChart {
  readonly resize: (width: number) => void;
  readonly destroy: () => void;
}

const COLOURS = ['#1f5fa8', '#b3541e', '#2f7d32', '#7b3fa0'];
const HEIGHT = 200;

/**
 * Draws `data` into `target` at `width` px, one line per series label, y values through `format`;
 * the time axis spans `span` (ms since the epoch), the whole range chosen, not only its samples.
 */
export function drawChart(
  target: HTMLElement,
  width: number,
  labels: readonly string[],
  data: AlignedSeries,
  format: (value: number) => string,
  span: { readonly from: number; readonly to: number },
): DrawnChart {
  const plot = new uPlot(
    {
      width,
      height: HEIGHT,
      legend: { show: labels.length > 1, live: false },
      scales: { x: { time: true, auto: false, range: [span.from / 1000, span.to / 1000] } },
      series: [
        {},
        ...labels.map((label, i) => ({ label, stroke: COLOURS[i % COLOURS.length], width: 2, spanGaps: true })),
      ],
      axes: [{}, { size: 70, values: (_u: uPlot, ticks: number[]) => ticks.map(format) }],
    },
    [data.xs, ...data.ys],
    target,
  );
  plot.root.setAttribute('aria-hidden', 'true');
  return { resize: (w) => plot.setSize({ width: w, height: HEIGHT }), destroy: () => plot.destroy() };
}
