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

/** What one column of the data is: a line with its label, or an edge of a line's min-max band. */
export type PlotColumn =
  | { readonly kind: 'line'; readonly label: string }
  | { readonly kind: 'edge'; readonly label: string; readonly line: number; readonly edge: 'min' | 'max' };

/** How a chart draws its columns. */
export interface PlotLayout {
  /** One per column of `AlignedSeries.ys`. */
  readonly columns: readonly PlotColumn[];
  /** On/off values (0 and 1): the lines step, the y axis shows 0 and 1 only. */
  readonly steps?: boolean;
}

/** `#rrggbb` at a quarter opacity for a band's fill; another colour as it is. */
function translucent(colour: string): string {
  return /^#[0-9a-fA-F]{6}$/.test(colour) ? `${colour}40` : colour;
}

/**
 * Draws `data` into `target` at `width` px, its columns as `layout` says: each line in the next
 * series colour, each pair of band edges as the translucent area between them in its line's
 * colour; y values through `format`. The time axis spans `span` (ms since the epoch), the whole
 * range chosen, not only its samples. The canvas takes its colours from the colour tokens
 * (`--fg`, `--line`, `--chart-*`), and is drawn again in the other theme's when the system
 * setting changes.
 */
export function drawChart(
  target: HTMLElement,
  width: number,
  layout: PlotLayout,
  data: AlignedSeries,
  format: (value: number) => string,
  span: { readonly from: number; readonly to: number },
): DrawnChart {
  const { columns } = layout;
  const lineCount = columns.filter((c) => c.kind === 'line').length;
  // uPlot numbers the series from 1 (0 is the time axis).
  const seriesOf = (column: number) => column + 1;
  const edgeOf = (line: number, edge: 'min' | 'max') =>
    columns.findIndex((c) => c.kind === 'edge' && c.line === line && c.edge === edge);
  const stepped = layout.steps ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
  const draw = (w: number) => {
    const colours = tokenColours(target);
    const colourOf = (line: number) => colours.series[line % colours.series.length] ?? FALLBACK_SERIES[0];
    const axis = {
      stroke: colours.ink,
      grid: { stroke: colours.grid, width: 1 },
      ticks: { stroke: colours.grid, width: 1 },
    };
    const bands = columns.flatMap((c, i): uPlot.Band[] => {
      if (c.kind !== 'line') return [];
      const [low, high] = [edgeOf(i, 'min'), edgeOf(i, 'max')];
      if (low < 0 || high < 0) return [];
      return [{ series: [seriesOf(high), seriesOf(low)], fill: translucent(colourOf(i) ?? '') }];
    });
    const plot = new uPlot(
      {
        width: w,
        height: HEIGHT,
        legend: { show: lineCount > 1, live: false },
        scales: {
          x: { time: true, auto: false, range: [span.from / 1000, span.to / 1000] },
          ...(layout.steps ? { y: { auto: false, range: [-0.1, 1.1] } } : {}),
        },
        bands,
        series: [
          {},
          ...columns.map((c) =>
            c.kind === 'line'
              ? {
                  label: c.label,
                  stroke: colourOf(columns.slice(0, columns.indexOf(c)).filter((d) => d.kind === 'line').length),
                  points: { fill: colours.ground },
                  width: 2,
                  spanGaps: true,
                  ...(stepped ? { paths: stepped } : {}),
                }
              : { label: c.label, stroke: 'transparent', width: 0, points: { show: false }, spanGaps: true },
          ),
        ],
        axes: [
          axis,
          {
            ...axis,
            size: 70,
            values: (_u: uPlot, ticks: number[]) => ticks.map(format),
            ...(layout.steps ? { splits: () => [0, 1] } : {}),
          },
        ],
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
