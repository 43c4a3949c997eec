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
