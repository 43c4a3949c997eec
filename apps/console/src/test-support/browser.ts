/**
 * The console's browser-test harness: Debian's Chromium driven by playwright-core (no browser
 * downloads), console-error collection and axe-core. Node-side only (vitest files).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** The message of a skipped (or, with TRIAD_REQUIRE_SERVICES=1, failed) browser suite. */
export const CHROMIUM_MISSING = `${CHROMIUM_PATH} is missing: apt-get install chromium`;

/** A phone-sized and a desktop viewport every main page is checked at. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** How long one browser test may run before it counts as hung. */
export const BROWSER_TEST_TIMEOUT_MS = 120_000;

/**
 * `describe` for a browser suite: runs `body` when Chromium is installed; otherwise skips with
 * CHROMIUM_MISSING, or fails with it when `TRIAD_REQUIRE_SERVICES=1` (the repository's
 * required-services convention, as for PostgreSQL and erl).
 *
 * A browser journey drives a real Chromium and a real server while the rest of the suite shares
 * the machine's cores, so its tests get BROWSER_TEST_TIMEOUT_MS unless they name a longer time.
 * One that took 12 s alone ran past 30 s on a loaded two-core CI machine. The timeout only
 * bounds a hung test; no test asserts how fast a page is.
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, { timeout: BROWSER_TEST_TIMEOUT_MS }, body);
    return;
  }
  if (process.env.TRIAD_REQUIRE_SERVICES === '1') {
    describe(name, () => {
      it('requires Chromium because TRIAD_REQUIRE_SERVICES=1', () => {
        throw new Error(CHROMIUM_MISSING);
      });
    });
    return;
  }
  describe.skip(`${name} (${CHROMIUM_MISSING})`, body);
}

/** Launches the system Chromium headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}

/** A page plus every console error and uncaught exception it produced. */
export interface WatchedPage {
  readonly page: Page;
  readonly errors: string[];
}

/** Opens a page at `viewport` (default desktop) that records console errors and page errors. */
export async function openWatchedPage(
  browser: Browser,
  viewport: { readonly width: number; readonly height: number } = VIEWPORTS.desktop,
): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return { page, errors };
}

interface AxeResult {
  readonly violations: readonly {
    readonly id: string;
    readonly impact?: string | null;
    readonly help: string;
    readonly nodes: readonly { readonly target: readonly unknown[] }[];
  }[];
}

let axeSource: string | undefined;

/**
 * Runs axe-core on the page as it is now and lists its serious and critical violations as
 * `id (impact): help at selector, ...` lines; empty when there are none.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, not a <script> tag: the pages' CSP allows no inline script.
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => (window as unknown as { axe: { run(): Promise<AxeResult> } }).axe.run());
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact ?? ''}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/screenshots');

/**
 * Saves `docs/screenshots/<name>.png` when `TRIAD_SCREENSHOTS=1` (`npm run screenshots`); does
 * nothing otherwise, so ordinary test runs leave the tree clean.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.TRIAD_SCREENSHOTS !== '1') return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The console's build folder, which a test hands to the service it starts (`consoleRoot`), as `triad serve` does. */
export const CONSOLE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/** Whether the console is built (the services serve `dist/`); browser suites need it. */
export function consoleBuilt(): boolean {
  return existsSync(path.join(CONSOLE_ROOT, 'index.html'));
}

/**
 * Visible text whose colour stands below WCAG AA contrast (4.5:1, 3:1 for large text) on the
 * background it is drawn on, as `selector "text": ratio (ink on ground)` lines; empty when all
 * text reads. Unlike axe, it judges text inside scrolling boxes and buttons without a background
 * of their own too (axe leaves those "incomplete"), which is where white-on-white hid. Disabled
 * controls are exempt, as in WCAG.
 */
export async function lowContrastText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rgba = readonly [number, number, number, number];
    const parse = (colour: string): Rgba => {
      const parts =
        /rgba?\(([^)]+)\)/
          .exec(colour)?.[1]
          ?.split(/[\s,/]+/)
          .filter(Boolean) ?? [];
      const [r = 0, g = 0, b = 0, a = 1] = parts.map(Number);
      return [r, g, b, parts.length > 3 ? a : 1];
    };
    const over = (top: Rgba, under: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => (top[i] ?? 0) * a + (under[i] ?? 0) * (1 - a)).concat(1) as unknown as Rgba;
    };
    const ground = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let e: Element | null = element; e; e = e.parentElement) {
        const colour = parse(getComputedStyle(e).backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] >= 1) break;
      }
      return layers.reduceRight<Rgba>((under, top) => over(top, under), [255, 255, 255, 1]);
    };
    const luminance = (c: Rgba): number => {
      const [r, g, b] = [c[0], c[1], c[2]].map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    const problems: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const text = [...element.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (text === '' || !(element instanceof HTMLElement) || element.closest('.cm-editor, .visually-hidden')) continue;
      if (element.closest(':disabled, [aria-disabled="true"]') || element.offsetParent === null) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      const back = ground(element);
      const ink = over(parse(style.color), back);
      const [hi, lo] = [luminance(ink), luminance(back)].sort((a, b) => b - a);
      const ratio = ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) {
        const classes = String(element.className).split(' ').filter(Boolean);
        const name = [element.tagName.toLowerCase(), ...classes].join('.');
        problems.push(
          `${name} "${text.slice(0, 40)}": ${ratio.toFixed(2)} (${style.color} on rgb(${back.slice(0, 3).join(', ')}))`,
        );
      }
    }
    return problems;
  });
}

/** How many px the page is wider than the window (0 when it does not scroll sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

/** Tallest screenshot `checkLook` saves, in CSS px: the top of a long page shows its state. */
const MAX_SHOT_HEIGHT = 2400;

/** Where `checkLook` writes its screenshots when `TRIAD_SHOTS_DIR` names a folder (e.g. /tmp/shots-console). */
function shotsDirectory(): string | undefined {
  if (process.env.TRIAD_SCREENSHOTS === '1') return SCREENSHOTS;
  return process.env.TRIAD_SHOTS_DIR || undefined;
}

/**
 * Looks at the page as it is now the way a person would, in the light and the dark theme
 * (`prefers-color-scheme`) at the desktop and the phone width: serious and critical axe violations,
 * text below AA contrast (`lowContrastText`), and at the phone width a page that scrolls sideways.
 * Returns every finding as `theme width: finding` lines (empty when the page is fine) and leaves
 * the page in the light theme at its former size. With `TRIAD_SCREENSHOTS=1` (docs/screenshots)
 * or `TRIAD_SHOTS_DIR`, it saves `<name>-<theme>-<width>.png` of each state (and, in
 * docs/screenshots, `<name>.png` of the light desktop one when that file is there: a guide shows it),
 * each at most `MAX_SHOT_HEIGHT` px tall.
 */
export async function checkLook(page: Page, name: string): Promise<string[]> {
  const size = page.viewportSize() ?? VIEWPORTS.desktop;
  const findings: string[] = [];
  const shots = shotsDirectory();
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
        await page.setViewportSize(viewport);
        // Let a resize observer (table scroll hints, charts) catch up before judging.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const where = `${colorScheme} ${viewport.width}`;
        for (const line of [...(await seriousAxeViolations(page)), ...(await lowContrastText(page))]) {
          findings.push(`${where}: ${line}`);
        }
        if (viewport === VIEWPORTS.phone) {
          const overflow = await horizontalOverflow(page);
          if (overflow > 0) findings.push(`${where}: the page scrolls ${overflow} px sideways`);
        }
        if (shots !== undefined) {
          await mkdir(shots, { recursive: true });
          const file = path.join(shots, `${name}-${colorScheme}-${viewport.width}.png`);
          // The whole page down to `MAX_SHOT_HEIGHT` (a list of 1,000 rows would be 0.8 MB of repeats).
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          const clip = { x: 0, y: 0, width: viewport.width, height: Math.min(height, MAX_SHOT_HEIGHT) };
          // From the top: a page scrolled down draws its sticky column headers where the viewport
          // was, under the rows, in a whole-page picture.
          const scrolled = await page.evaluate(() => {
            const y = window.scrollY;
            window.scrollTo(0, 0);
            return y;
          });
          await page.screenshot({ path: file, fullPage: true, clip });
          // A guide's picture (`<name>.png`, already in docs/screenshots) is the light desktop shot.
          const guide = path.join(shots, `${name}.png`);
          if (colorScheme === 'light' && viewport === VIEWPORTS.desktop && shots === SCREENSHOTS && existsSync(guide))
            await page.screenshot({ path: guide, fullPage: true, clip });
          await page.evaluate((y) => window.scrollTo(0, y), scrolled);
        }
      }
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(size);
  }
  return findings;
}
