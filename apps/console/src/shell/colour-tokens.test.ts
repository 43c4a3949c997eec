/**
 * Colour tokens of `styles.css` that no page check can judge, because they are drawn where axe
 * and `lowContrastText` do not look: the template editor's syntax colours (template-highlight.ts)
 * read at WCAG AA (4.5:1) on the editor's ground, its active line and its selection, and chart
 * lines (uplot-chart.ts, a canvas) stand at 3:1 or more on the page, in the light and the dark theme.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const STYLES = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'styles.css'), 'utf8');

/** The custom properties set in the first `:root { ... }` block after `from` in the style sheet. */
function tokens(from: number): Map<string, string> {
  const start = STYLES.indexOf(':root {', from);
  const body = STYLES.slice(start, STYLES.indexOf('}', start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\b/gi)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

const LIGHT = tokens(0);
const DARK = new Map([...LIGHT, ...tokens(STYLES.indexOf('@media (prefers-color-scheme: dark)'))]);

function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const s = parseInt(hex.slice(i, i + 2), 16) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi = 0, lo = 0] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('colour tokens drawn outside the page checks', () => {
  for (const [theme, set] of [
    ['light', LIGHT],
    ['dark', DARK],
  ] as const) {
    it(`reads at 4.5:1 or more in the ${theme} theme, on the ground, the active line and the selection`, () => {
      const inks = [...set.keys()].filter((name) => name.startsWith('--syntax-') || name === '--code-fg');
      expect(inks.length).toBeGreaterThanOrEqual(8);
      const low: string[] = [];
      for (const ink of inks)
        for (const ground of ['--code-bg', '--panel', '--code-selection']) {
          const ratio = contrast(set.get(ink) ?? '', set.get(ground) ?? '');
          if (!(ratio >= 4.5)) low.push(`${ink} on ${ground}: ${ratio.toFixed(2)}`);
        }
      // Line numbers in the gutter.
      const gutter = contrast(set.get('--muted') ?? '', set.get('--panel') ?? '');
      if (!(gutter >= 4.5)) low.push(`--muted on --panel: ${gutter.toFixed(2)}`);
      expect(low).toEqual([]);
    });
  }

  for (const [theme, set] of [
    ['light', LIGHT],
    ['dark', DARK],
  ] as const) {
    it(`draws chart lines and axis text that stand out from the page in the ${theme} theme`, () => {
      const low: string[] = [];
      for (const ink of ['--chart-1', '--chart-2', '--chart-3', '--chart-4']) {
        const ratio = contrast(set.get(ink) ?? '', set.get('--bg') ?? '');
        if (!(ratio >= 3)) low.push(`${ink}: ${ratio.toFixed(2)}`);
      }
      expect(contrast(set.get('--fg') ?? '', set.get('--bg') ?? '')).toBeGreaterThanOrEqual(4.5);
      expect(low).toEqual([]);
    });
  }

  it('gives the dark theme its own editor and chart colours', () => {
    for (const name of [
      '--code-bg',
      '--code-fg',
      '--code-selection',
      '--syntax-property',
      '--syntax-string',
      '--chart-1',
    ])
      expect(DARK.get(name)).not.toBe(LIGHT.get(name));
  });
});
