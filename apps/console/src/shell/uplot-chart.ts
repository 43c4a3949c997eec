/**
 * The uPlot drawing of the console's trend charts. Imported dynamically by `trend-chart.tsx`, so
 * uPlot and its styles load only when a page shows a chart.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AlignedSeries } from './timed-series.js';

/** A drawn chart: resize it to its container, or remove it. */
export interface DrawnChart {
  readonly resize: (width: number) => void;
  readonly destroy: () => void;
}

const HEIGHT = 200;
/** Series colours when a token is missing (the light theme's). */
const FALLBACK_SERIES = ['#1f5fa8', '#b3541e', '#2f7d32', '#7b3fa0'];

/** The colours a chart is drawn in: the page's tokens as they are now (light or dark theme). */
interface ChartColours {
  /** Axis values and labels (`--fg`). */
  readonly ink: string;
  /** Grid lines and ticks (`--line`). */
  readonly grid: string;
  /** The page's ground (`--bg`), inside the points. */
  readonly ground: string;
  /** One per series, in turn (`--chart-1` to `--chart-4`). */
  readonly series: readonly string[];
}

/** Reads the chart colours from the computed custom properties of `element`. */
function tokenColours(element: HTMLElement): ChartColours {
  const style = getComputedStyle(element);
  const token = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    ink: token('--fg', '#1b1f24'),
    grid: token('--line', '#c9d0d9'),
    ground: token('--bg', '#ffffff'),
    series: FALLBACK_SERIES.map((fallback, i) => token(`--chart-${i + 1}`, fallback)),
  };
}

/**
 * Draws `data` into `target` at `width` px, one line per series label, y values through `format`;
 * the time axis spans `span` (ms since the epoch), the whole range chosen, not only its samples.
 * The canvas takes its colours from the colour tokens (`--fg`, `--line`, `--chart-*`), and is
 * drawn again in the other theme's when the system setting changes.
 */
export function drawChart(
  target: HTMLElement,
  width: number,
  labels: readonly string[],
  data: AlignedSeries,
  format: (value: number) => string,
  span: { readonly from: number; readonly to: number },
): DrawnChart {
  const draw = (w: number) => {
    const colours = tokenColours(target);
    const axis = {
      stroke: colours.ink,
      grid: { stroke: colours.grid, width: 1 },
      ticks: { stroke: colours.grid, width: 1 },
    };
    const plot = new uPlot(
      {
        width: w,
        height: HEIGHT,
        legend: { show: labels.length > 1, live: false },
        scales: { x: { time: true, auto: false, range: [span.from / 1000, span.to / 1000] } },
        series: [
          {},
          ...labels.map((label, i) => ({
            label,
            stroke: colours.series[i % colours.series.length],
            points: { fill: colours.ground },
            width: 2,
            spanGaps: true,
          })),
        ],
        axes: [axis, { ...axis, size: 70, values: (_u: uPlot, ticks: number[]) => ticks.map(format) }],
      },
      [data.xs, ...data.ys],
      target,
    );
    plot.root.setAttribute('aria-hidden', 'true');
    return plot;
  };
  let plot = draw(width);
  const scheme = matchMedia('(prefers-color-scheme: dark)');
  const redraw = () => {
    const w = plot.width;
    plot.destroy();
    plot = draw(w);
  };
  scheme.addEventListener('change', redraw);
  return {
    resize: (w) => plot.setSize({ width: w, height: HEIGHT }),
    destroy: () => {
      scheme.removeEventListener('change', redraw);
      plot.destroy();
    },
  };
}
