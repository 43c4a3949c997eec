/**
 * Rows per block: the unit a long table draws or leaves out. 25 rows of alarms (about 1,200 px)
 * fill a desktop window with the margin the window keeps; 50 doubled what a sort redraws
 * (decision 0039).
 */
export const BLOCK_ROWS = 25;

/**
 * The blocks to render: those near the viewport, and the focused block with its neighbours, so
 * Tab and Shift+Tab always find the next row's buttons in the page. Sorted, within `0..blocks-1`.
 */
export function blocksToRender(near: ReadonlySet<number>, focused: number | undefined, blocks: number): number[] {
  const wanted = new Set(near);
  if (focused !== undefined) for (const b of [focused - 1, focused, focused + 1]) wanted.add(b);
  if (wanted.size === 0) wanted.add(0);
  return [...wanted].filter((b) => b >= 0 && b < blocks).sort((a, b) => a - b);
}

/**
 * The height, in px, a block left out takes: its measured height when it was once rendered with
 * as many rows, else its row count times the mean row height measured so far (`fallbackRowPx`
 * before anything was measured).
 */
export function blockHeight(
  rows: number,
  measured: { readonly px: number; readonly rows: number } | undefined,
  meanRowPx: number | undefined,
  fallbackRowPx: number,
): number {
  if (measured && measured.rows === rows) return measured.px;
  return Math.round(rows * (meanRowPx ?? fallbackRowPx));
}
