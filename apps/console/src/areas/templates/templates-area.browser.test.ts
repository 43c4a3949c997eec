/**
 * The templates area in a real browser: the template service on port 0 with a temporary SQLite
 * data dir and the demo templates, Chromium through playwright-core, axe-core. Needs the console
 * build (`npm run build -w apps/console`) and /usr/bin/chromium.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTemplatesServer, type RunningTemplatesServer } from '@triad/templates-service';
import { generateLargeTemplate } from '../../../../../bench/generate-large-template.js';
import { checkLook, CONSOLE_ROOT, lowContrastText } from '../../test-support/browser.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.TRIAD_REQUIRE_SERVICES === '1') {
  throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
}
if (!available) console.warn(`skipping the templates browser tests: ${CHROMIUM} is missing (apt-get install chromium)`);

const SNMP = 'Generic SNMP switch';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The write token the demo start printed. */
let demoToken: string | undefined;
function writeToken(): string {
  if (demoToken === undefined) throw new Error('the service printed no write token');
  return demoToken;
}

/** Opens a page that records console errors and uncaught exceptions in `errors`. */
async function openPage(browser: Browser, errors: string[], width = 1280, height = 800): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}

/** Serious and critical axe violations of the page, as "id: help" lines. */
async function axeViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol, not a <script> tag: the page's CSP allows no inline script.
  await page.evaluate(await readFile(AXE, 'utf8'));
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: `${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}
interface AxeViolation {
  readonly id: string;
  readonly impact?: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

describe.skipIf(!available)('templates area in Chromium', () => {
  let directory: string;
  let server: RunningTemplatesServer;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-console-templates-'));
    server = await startTemplatesServer(
      { port: 0, dataDir: path.join(directory, 'data'), demo: true, logLevel: 'silent' },
      { env: {}, consoleRoot: CONSOLE_ROOT },
    );
    demoToken = /(tdt_\S+)/.exec(server.notes.join('\n'))?.[1];
    browser = await chromium.launch({ executablePath: CHROMIUM });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('lists and searches the registry by text and driver, with no serious axe violation', async () => {
    const page = await openPage(browser, errors);
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Template registry' }).count()).toBe(1);
    await page.getByLabel('Search templates').fill('snmp');
    await expect
      .poll(() => page.getByRole('heading', { level: 3 }).allTextContents())
      .toEqual([`SNMP switch (${SNMP})`]);
    await page.getByLabel('Search templates').fill('');
    await page.getByLabel('Driver').selectOption('svc-ds-drv-modbus-tcp');
    await expect.poll(async () => (await page.getByRole('heading', { level: 3 }).allTextContents()).length).toBe(1);
    const download = page.getByRole('link', { name: /^Download / }).first();
    expect(await download.getAttribute('href')).toMatch(/\?format=source$/);
    expect(await checkLook(page, 'templates-registry')).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows a diagnostic at its line while typing, moves there from the problems list, and clears it', async () => {
    const page = await openPage(browser, errors);
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: `Edit ${SNMP} 1.0.0` }).click();
    const editor = page.getByRole('textbox', { name: 'Template source (YAML)' });
    await editor.waitFor();
    await expect.poll(() => page.getByText('No problems').count()).toBe(1);
    // CodeMirror renders only the lines in view: go to line 118 with its go-to-line panel.
    await editor.click();
    await page.keyboard.press('Control+Alt+g');
    await page.keyboard.type('118');
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    expect(await page.locator('.cm-activeLine').textContent()).toContain('datapoint.value > 80');
    await page.keyboard.type(' +');
    const problem = page.getByRole('list', { name: 'Problems' }).getByRole('button').first();
    await expect.poll(() => problem.textContent(), { timeout: 5000 }).toMatch(/^Line 118, column \d+/);
    expect(await axeViolations(page)).toEqual([]);
    // The problem's words must read on the page, not only its red bar.
    expect(await lowContrastText(page)).toEqual([]);
    expect(await checkLook(page, 'templates-editor-problems')).toEqual([]);
    // The syntax colours follow the theme and read on the editor's ground in both (checkLook leaves the editor out).
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const look = await page.evaluate(() => {
        const rgb = (colour: string) => (/rgba?\(([^)]+)\)/.exec(colour)?.[1] ?? '0 0 0').split(/[\s,]+/).map(Number);
        const luminance = (colour: string) => {
          const [r = 0, g = 0, b = 0] = rgb(colour).map((v) => {
            const c = v / 255;
            return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const editor = document.querySelector('.cm-editor');
        const ground = editor ? getComputedStyle(editor).backgroundColor : '';
        const inks = new Set([...document.querySelectorAll('.cm-line span')].map((s) => getComputedStyle(s).color));
        const ratios = [...inks].map((ink) => {
          const [hi = 0, lo = 0] = [luminance(ink), luminance(ground)].sort((a, b) => b - a);
          return (hi + 0.05) / (lo + 0.05);
        });
        return { groundLuminance: luminance(ground), inks: inks.size, lowest: Math.min(...ratios) };
      });
      expect(look.inks).toBeGreaterThanOrEqual(3);
      expect(look.lowest).toBeGreaterThanOrEqual(4.5);
      if (colorScheme === 'dark') expect(look.groundLuminance).toBeLessThan(0.05);
      else expect(look.groundLuminance).toBeGreaterThan(0.9);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    // Keyboard: the problem is a button; Enter puts the cursor on its line in the editor.
    await page.getByRole('heading', { name: 'Problems' }).click();
    await problem.focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('cm-content'))).toBe(true);
    expect(await page.locator('.cm-activeLine').textContent()).toContain('datapoint.value > 80 +');
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await expect.poll(() => page.getByText('No problems').count(), { timeout: 5000 }).toBe(1);
    await page.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it('saves a new version that the registry then lists, and tries the pipeline', async () => {
    const page = await openPage(browser, errors);
    await page.goto(`${server.url}/?edit=${encodeURIComponent(SNMP)}&version=1.0.0`);
    await page.getByRole('textbox', { name: 'Template source (YAML)' }).waitFor();
    expect(await page.getByLabel('New version').inputValue()).toBe('1.0.1');
    await page.getByRole('button', { name: 'Save as new version' }).click();
    // Writes need a token: the page asks for it, then saves with it.
    await page.getByLabel('Write token', { exact: true }).fill(writeToken());
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Saved ${SNMP} 1.0.1`);
    // The editor now is on the saved version: its title, its URL, and the next version proposed.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${SNMP} 1.0.1`);
    expect(new URL(page.url()).searchParams.get('version')).toBe('1.0.1');
    await expect.poll(() => page.getByLabel('New version').inputValue()).toBe('1.0.2');
    expect(await page.getByText(/Runs the value pipeline of the saved version 1\.0\.1/).count()).toBe(1);
    // The refused first attempt is the one console error (Chromium logs the 401 response).
    expect(errors.splice(0).every((e) => /status of 401/.test(e))).toBe(true);
    // Saving the same version again: said in words, not as the API's "already stored; PUT it to its URL".
    await page.getByLabel('New version').fill('1.0.1');
    await page.getByRole('button', { name: 'Save as new version' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe(
        'Not saved: version 1.0.1 is in the registry already, and a saved version never changes. ' +
          'Enter a new version number and save again.',
      );
    expect(errors.splice(0).every((e) => /status of 409/.test(e))).toBe(true);

    // The datapoints of the template are offered, by their alias and type.
    await page.getByLabel('Datapoint', { exact: true }).selectOption({ label: 'CPU load (%) (INTEGER)' });
    await page.getByLabel('Raw values (comma-separated)').fill('50, 90, 40');
    await page.getByRole('button', { name: 'Run pipeline' }).click();
    const values = page.getByRole('table', { name: 'Values' });
    await expect.poll(() => values.getByRole('row').count()).toBe(4);
    expect(await values.getByRole('row').nth(2).textContent()).toContain('90');
    const events = await page.getByRole('list', { name: 'Events' }).textContent();
    expect(events).toMatch(/Alarm raised \(Warning \(401\)\)/);
    expect(await values.getByRole('row').nth(1).textContent()).toMatch(/^CPU load \(%\)50/);
    expect(events).toMatch(/Alarm cleared/);
    expect(await checkLook(page, 'templates-try-it')).toEqual([]);

    // A value of the wrong type is refused as no driver would deliver it, in words, before any run.
    await page.getByLabel('Raw values (comma-separated)').fill('50, true, 4.5');
    await page.getByRole('button', { name: 'Run pipeline' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(
        'Not run: true is not a whole number; 4.5 is not a whole number. CPU load (%) is INTEGER, and a ' +
          'driver hands the pipeline only values of that type. Change the raw values and run again.',
      );
    expect(await values.count()).toBe(0);
    expect(await checkLook(page, 'templates-try-it-refused')).toEqual([]);

    await page.getByRole('link', { name: 'Back to the registry' }).click();
    await page.getByRole('button', { name: `All versions of ${SNMP}` }).click();
    const versions = page.getByRole('list', { name: `Versions of ${SNMP}` });
    await expect.poll(() => versions.getByRole('listitem').allTextContents()).toHaveLength(2);
    expect((await versions.getByRole('listitem').first().textContent()) ?? '').toMatch(/^1\.0\.1 latest/);

    // A BOOLEAN datapoint starts with booleans, and refuses 10, 90, 20 (issue 26 item 7).
    await page.goto(`${server.url}/?edit=ICMP%20host&version=1.0.0`);
    await page.getByLabel('Datapoint', { exact: true }).selectOption({ label: 'Reachable (BOOLEAN)' });
    expect(await page.getByLabel('Raw values (comma-separated)').inputValue()).toBe('true, false, true');
    await page.getByLabel('Raw values (comma-separated)').fill('10, 90, 20');
    await page.getByRole('button', { name: 'Run pipeline' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Not run: 10 is not true or false;/);
    await page.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it('checks a 1,000-datapoint template after a keystroke and prints how long it took', async () => {
    const document = { ...generateLargeTemplate(1000), templateId: 'Large', templateVersion: '1.0.0' };
    const stored = await fetch(`${server.url}/templates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writeToken()}` },
      body: JSON.stringify(document, null, 2),
    });
    expect(stored.status).toBe(201);
    const page = await openPage(browser, errors);
    await page.goto(`${server.url}/?edit=Large&version=1.0.0`);
    const editor = page.getByRole('textbox', { name: 'Template source (JSON)' });
    await editor.waitFor();
    await expect.poll(() => page.getByText('No problems').count(), { timeout: 10_000 }).toBe(1);
    const checked = page.getByText(/^Checked in \d+ ms/);
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      await editor.click();
      await page.keyboard.press('Control+Home');
      await page.keyboard.type(i % 2 === 0 ? ' ' : 'x');
      // A space keeps it valid; "x" before the first brace breaks it: wait for the verdict to flip.
      await expect.poll(() => page.getByText('No problems').count(), { timeout: 5000 }).toBe(i % 2 === 0 ? 1 : 0);
      samples.push(Number(/\d+/.exec((await checked.textContent()) ?? '')?.[0]));
      await page.keyboard.press('Backspace');
    }
    console.log(`keystroke to diagnostics on 1,000 datapoints (ms, in page): ${samples.join(', ')}`);
    expect(samples.every((ms) => Number.isFinite(ms))).toBe(true);
    await page.close();
    expect(errors).toEqual([]);
  }, 120_000);
});
