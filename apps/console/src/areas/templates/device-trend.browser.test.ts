/**
 * The device page's trend in a real browser: the template service on port 0 (temporary SQLite, a
 * write token), the ICMP starter polled every 5 s against 127.0.0.1 by the real `ping` (values
 * reach the history through the collection path), 1,000 older values of the same datapoint
 * written through the service's own history repository into its database file, and Chromium
 * through playwright-core with axe-core. Needs the console build and /usr/bin/chromium.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate } from '@triad/device-templates';
import {
  DeviceHistoryRepository,
  startTemplatesServer,
  TEMPLATES_SQLITE_FILE,
  type RunningTemplatesServer,
  type TemplatesDatabase,
} from '@triad/templates-service';
import {
  CONSOLE_ROOT,
  consoleBuilt,
  describeInBrowser,
  launchBrowser,
  openWatchedPage,
  seriousAxeViolations,
  VIEWPORTS,
} from '../../test-support/browser.js';

const TOKEN = 'console-trend-write-token';
const TEMPLATE = 'Ping Trend';
/** A long alias (80 characters at most): the select, the heading and the caption must wrap it. */
const LONG_ALIAS = 'Round-trip time of the echo request to the gateway in the north building hall';
const HOUR = 3_600_000;

function pingTemplate(): Record<string, unknown> {
  const template = createStarterTemplate('icmp', { templateId: TEMPLATE }) as {
    datapointSets: { datapoints: Record<string, Record<string, unknown>>[] }[];
  };
  const datapoints = template.datapointSets[0]?.datapoints ?? [];
  for (const datapoint of datapoints) (datapoint['addressConfig'] as { pollingGroup: string }).pollingGroup = '5s';
  const [rtt] = datapoints;
  if (rtt === undefined) throw new Error('the ICMP starter has no datapoint');
  (rtt['commonConfig'] as { alias: string }).alias = LONG_ALIAS;
  rtt['unitsConfig'] = { from: 'ms', to: 'ms', units: true };
  return template;
}

async function post(server: RunningTemplatesServer, url: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
}

async function addDevice(server: RunningTemplatesServer, name: string, address: string): Promise<string> {
  const created = await post(server, '/devices', {
    name,
    templateId: TEMPLATE,
    templateVersion: '1.0.0',
    variables: { ICMP_IPAddress: address },
    drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 500 } },
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

describeInBrowser('device trend in Chromium', () => {
  let directory = '';
  let server: RunningTemplatesServer;
  let browser: Browser;
  let deviceId = '';
  let quietId = '';
  const historyRequests: URL[] = [];

  beforeAll(async () => {
    if (!consoleBuilt()) throw new Error('the console is not built: npm run build -w apps/console');
    directory = await mkdtemp(path.join(tmpdir(), 'triad-console-trend-'));
    const dataDir = path.join(directory, 'data');
    server = await startTemplatesServer(
      { port: 0, dataDir, demo: false },
      { env: { TRIAD_LOG_LEVEL: 'silent', TRIAD_TEMPLATES_ADMIN_TOKEN: TOKEN }, consoleRoot: CONSOLE_ROOT },
    );
    const stored = await post(server, '/templates', pingTemplate());
    expect(stored.status, await stored.clone().text()).toBe(201);
    deviceId = await addDevice(server, 'gateway', '127.0.0.1');
    // Never answers (.invalid never resolves): its history holds no number.
    quietId = await addDevice(server, 'quiet', 'nothing.invalid');
    // 1,000 values over the 6 days before the last hour: raw rows and the minute and hour rows
    // the 7 d range is answered from, written by the service's own repository in its own file.
    const database = openDatabase<TemplatesDatabase>({ sqliteFile: path.join(dataDir, TEMPLATES_SQLITE_FILE) });
    try {
      const now = Date.now();
      await new DeviceHistoryRepository(database).write(
        Array.from({ length: 1000 }, (_, i) => ({
          deviceId,
          setId: 'reachability',
          datapointId: 'roundTripTime',
          row: '',
          at: now - 2 * HOUR - i * Math.floor((6 * 24 * HOUR) / 1000),
          value: 20 + 10 * Math.sin(i / 40) + (i % 7),
          text: null,
        })),
      );
    } finally {
      await database.close();
    }
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  async function openDevice(
    id: string,
    viewport: { readonly width: number; readonly height: number } = VIEWPORTS.desktop,
  ): Promise<{ page: Page; errors: string[] }> {
    const watched = await openWatchedPage(browser, viewport);
    const { page } = watched;
    page.setDefaultTimeout(10_000);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/history')) historyRequests.push(url);
    });
    await page.goto(`${server.url}/?device=${id}`);
    await page.getByRole('textbox', { name: 'Write token' }).fill(TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Trend' }).waitFor();
    return watched;
  }

  it('charts collected values over 1 h, the filled week in buckets with a band, and says it in words', async () => {
    const { page, errors } = await openDevice(deviceId);
    const select = page.getByLabel('Datapoint');
    expect(await select.locator('option').allTextContents()).toEqual([
      `reachability values: ${LONG_ALIAS}`,
      'reachability values: packetLoss',
    ]);
    const chart = page.getByRole('figure', { name: `reachability values: ${LONG_ALIAS} (ms)` });
    // The last hour holds only what ping collected: raw values, at least one. A click on 1 h reads
    // the range again up to now; it is clicked only once the read before it has answered, since a
    // new read cancels the one running (on a loaded machine a read can take longer than 2 s).
    const caption = chart.locator('figcaption');
    await expect
      .poll(
        async () => {
          const shown = await caption.textContent();
          if (shown !== 'Loading…' && !/^latest /.test(shown ?? '')) {
            await page.getByRole('button', { name: '1 h' }).click();
          }
          return caption.textContent();
        },
        { timeout: 45_000, interval: 2000 },
      )
      .toMatch(/^latest \d+(\.\d+)? ms, min .+ ms, max .+ ms, average .+ ms \(\d+ values?\)$/);
    await chart.locator('canvas').first().waitFor();
    const oneHour = historyRequests.at(-1);
    expect(Number(oneHour?.searchParams.get('to')) - Number(oneHour?.searchParams.get('from'))).toBe(HOUR);
    expect(oneHour?.searchParams.get('set')).toBe('reachability');
    expect(oneHour?.searchParams.get('datapoint')).toBe('roundTripTime');

    // 7 d: the filled values in buckets, the text alternative says min, max, average and the band.
    const week = page.getByRole('button', { name: '7 d' });
    await week.focus();
    await page.keyboard.press('Enter');
    expect(await week.getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => chart.locator('figcaption').textContent())
      .toMatch(/^min .+ ms, max .+ ms, average .+ ms; last .+ average .+ \(1,\d{3} values in \d+ buckets of /);
    await chart.locator('canvas').first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Another datapoint, by keyboard: its chart replaces the first.
    await select.selectOption({ label: 'reachability values: packetLoss' });
    await page.getByRole('figure', { name: 'reachability values: packetLoss' }).waitFor();
    // The figure is named on render; its read is sent by the effect after it.
    await expect.poll(() => historyRequests.at(-1)?.searchParams.get('datapoint')).toBe('packetLoss');

    await page.setViewportSize(VIEWPORTS.phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
    expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
  }, 90_000);

  it('says a device without values has none yet, and why a refused read failed', async () => {
    const { page, errors } = await openDevice(quietId, VIEWPORTS.phone);
    const chart = page.getByRole('figure', { name: /Round-trip time of the echo/ });
    await expect.poll(() => chart.locator('figcaption').textContent()).toBe('No values recorded yet in this range.');
    expect(await chart.locator('canvas').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The device is removed elsewhere: the next read is refused (404), said in words on the chart.
    const removed = await fetch(`${server.url}/devices/${quietId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(removed.status).toBe(204);
    await page.getByRole('button', { name: '30 d' }).click();
    await expect.poll(() => chart.locator('figcaption').textContent()).toMatch(/^Could not load: .+\(HTTP 404\)\.$/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
    expect(errors.filter((e) => !/status of (401|404)/.test(e))).toEqual([]);
  }, 90_000);
});
