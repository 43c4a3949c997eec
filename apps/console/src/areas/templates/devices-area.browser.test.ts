/**
 * The device pages in a real browser: the template service on port 0 (temporary SQLite, a write
 * token set; device reads need a token, as by default) with the ICMP starter template polled
 * every 5 s against 127.0.0.1 by the real `ping`, an alarm that holds at once, and Chromium
 * through playwright-core with axe-core. Needs the console build (`npm run build -w apps/console`)
 * and /usr/bin/chromium.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStarterTemplate } from '@triad/device-templates';
import { startTemplatesServer, type RunningTemplatesServer } from '@triad/templates-service';
import {
  CONSOLE_ROOT,
  checkLook,
  consoleBuilt,
  describeInBrowser,
  launchBrowser,
  openWatchedPage,
  seriousAxeViolations,
  VIEWPORTS,
} from '../../test-support/browser.js';

const TOKEN = 'console-test-write-token';
const TEMPLATE = 'Ping Check';

const GRID = { firstRow: 1, widgetHeight: 2 };

/** The ICMP starter, polled every 5 s, with an alarm on the round-trip time that holds at once. */
function pingTemplate(): Record<string, unknown> {
  const template = createStarterTemplate('icmp', { templateId: TEMPLATE }) as {
    datapointSets: { datapoints: Record<string, Record<string, unknown>>[] }[];
  };
  const datapoints = template.datapointSets[0]?.datapoints ?? [];
  for (const datapoint of datapoints) (datapoint['addressConfig'] as { pollingGroup: string }).pollingGroup = '5s';
  const [rtt, loss] = datapoints;
  if (rtt === undefined || loss === undefined) throw new Error('the ICMP starter has no datapoint');
  // The names, unit and widgets the device page must use (issue 26 item 8).
  (rtt['commonConfig'] as { alias: string }).alias = 'Round-trip time';
  rtt['unitsConfig'] = { from: 'ms', to: 'ms', units: true };
  (loss['commonConfig'] as { alias: string }).alias = 'Packet loss';
  Object.assign(template, {
    representation: [
      {
        data: 'device[reachability]',
        commonConfig: { ...GRID, firstColumn: 1, widgetWidth: 4, widgetType: 'map', widgetTitle: 'Echo' },
        specificConfig: {
          format: [
            { order: 0, datapoint: 'roundTripTime', alias: 'Round-trip time', fieldType: 'numeric' },
            { order: 1, datapoint: 'packetLoss', alias: 'Loss', fieldType: 'numeric' },
          ],
        },
      },
      {
        data: 'device[reachability.roundTripTime]',
        commonConfig: { ...GRID, firstColumn: 5, widgetWidth: 2, widgetType: 'metric', widgetTitle: 'Echo time' },
        specificConfig: { titleEnabled: true },
      },
      {
        data: 'device[reachability.packetLoss]',
        commonConfig: { ...GRID, firstColumn: 7, widgetWidth: 2, widgetType: 'gauge', widgetTitle: 'Packet loss' },
        specificConfig: {
          minValue: 0,
          maxValue: 100,
          format: [{ datapoint: 'packetLoss', units: '%' }],
          ranges: [
            { from: 0, to: 25, severity: 201 },
            { from: 25, to: 100, severity: 801 },
          ],
        },
      },
    ],
  });
  rtt['alertConfig'] = {
    evaluations: [
      {
        expressions: [{ symbol: 'any', expression: 'datapoint.value >= 0' }],
        logic: 'any',
        severity: 601,
        text: 'Echo answered',
        // The datapoint by its id, as authors write it: the page names it by its alias.
        textHelp: 'Holds for any roundTripTime',
        onStartup: true,
        audited: false,
        hidden: false,
        broadcast: false,
        facility: -1,
      },
    ],
  };
  return template;
}

/** Console errors other than the replies the test asked for (Chromium logs every 4xx). */
const unexpected = (errors: readonly string[], statuses: readonly number[] = []) =>
  errors.filter((e) => !statuses.some((status) => e.includes(`status of ${status}`)));

describeInBrowser('device pages in Chromium', () => {
  let directory = '';
  let server: RunningTemplatesServer;
  let browser: Browser;
  let deviceId = '';

  beforeAll(async () => {
    if (!consoleBuilt()) throw new Error('the console is not built: npm run build -w apps/console');
    directory = await mkdtemp(path.join(tmpdir(), 'triad-console-devices-'));
    server = await startTemplatesServer(
      { port: 0, dataDir: path.join(directory, 'data'), demo: false },
      { env: { TRIAD_LOG_LEVEL: 'silent', TRIAD_TEMPLATES_ADMIN_TOKEN: TOKEN }, consoleRoot: CONSOLE_ROOT },
    );
    // The token too: a service that guards template writes takes it; one that does not ignores it.
    const stored = await fetch(`${server.url}/templates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(pingTemplate()),
    });
    expect(stored.status).toBe(201);
    const created = await fetch(`${server.url}/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({
        name: 'loopback',
        templateId: TEMPLATE,
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1' },
        drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 500 } },
      }),
    });
    expect(created.status).toBe(201);
    deviceId = ((await created.json()) as { id: string }).id;
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const notReloaded = (page: Page) =>
    page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

  it('lists the device, and its page fills values and raises the alarm live, at 1280 and 390 px', async () => {
    const { page, errors } = await openWatchedPage(browser);
    page.setDefaultTimeout(5000);
    await page.goto(`${server.url}/?devices`);
    // Device reads need a token: asked once, then the list, the device page and its stream use it.
    const tokenField = page.getByRole('textbox', { name: 'Write token' });
    await tokenField.fill(TOKEN);
    await page.keyboard.press('Enter');
    const row = page.getByRole('row', { name: /loopback/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${TEMPLATE}@1.0.0`);
    expect(await checkLook(page, 'templates-devices')).toEqual([]);
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await row.getByRole('link', { name: 'loopback' }).click();
    await page.getByRole('heading', { level: 1, name: 'loopback' }).waitFor();
    expect(page.url()).toBe(`${server.url}/?device=${deviceId}`);

    // Values come from the stream: both datapoints, good, by the template's aliases, with the unit.
    const values = page.getByRole('table', { name: 'Current values' });
    const rtt = values.getByRole('row', { name: /Round-trip time/ });
    await rtt.waitFor({ timeout: 15_000 });
    await values.getByRole('row', { name: /Packet loss/ }).waitFor({ timeout: 15_000 });
    expect(await rtt.textContent()).toMatch(/reachability values.*Round-trip time–\d+(\.\d+)? msgood/);
    // The widgets the template declares: a map with the field aliases, a metric card, a gauge.
    const echo = page.getByRole('region', { name: 'Echo', exact: true });
    await expect.poll(() => echo.textContent(), { timeout: 15_000 }).toMatch(/Round-trip time\d+(\.\d+)? msLoss0/);
    expect(await page.getByRole('region', { name: 'Echo time' }).textContent()).toMatch(/^Echo time\d+(\.\d+)? ms/);
    const gauge = page.getByRole('region', { name: 'Packet loss' }).getByRole('img');
    await expect.poll(() => gauge.getAttribute('aria-label')).toBe('Packet loss: 0 %, on a dial from 0 to 100');
    const alarms = page.getByRole('table', { name: 'Active alarms' });
    await alarms.getByRole('row', { name: /Echo answered/ }).waitFor({ timeout: 15_000 });
    expect(await alarms.textContent()).toContain('reachability values: Round-trip time');
    expect(await alarms.textContent()).toContain('Holds for any Round-trip time');
    expect(await alarms.getByRole('cell').first().textContent()).toBe('Error (601)');
    await expect.poll(() => page.locator('.tpl-facts').textContent(), { timeout: 15_000 }).toMatch(/State\s*up/);
    await expect
      .poll(() => page.getByRole('list', { name: 'Recent events' }).textContent(), { timeout: 15_000 })
      .toMatch(/Alarm raised \(Error \(601\)\) on Round-trip time: Echo answered/);

    // A later reading replaces the row in place: its time changes, the table keeps two rows.
    const firstTime = await rtt.locator('td').last().textContent();
    await expect.poll(() => rtt.locator('td').last().textContent(), { timeout: 15_000 }).not.toBe(firstTime);
    expect(await values.getByRole('row').count()).toBe(3);
    expect(await notReloaded(page)).toBe(true);

    // Acknowledged from the page with the token given above: who and when show, from the stream.
    const alarmRow = alarms.getByRole('row', { name: /Echo answered/ });
    await alarmRow.getByRole('button', { name: /^Acknowledge: Echo answered/ }).click();
    await alarmRow.getByRole('button', { name: /^Unacknowledge: / }).waitFor({ timeout: 10_000 });
    expect(await alarmRow.textContent()).toMatch(/by admin token, \d/);
    await expect
      .poll(() => page.getByRole('list', { name: 'Recent events' }).textContent(), { timeout: 10_000 })
      .toMatch(/Alarm acknowledged on Round-trip time by admin token: Echo answered/);
    const listed = (await (
      await fetch(`${server.url}/devices/${deviceId}/alarms`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { alarms: { acknowledged: { by: string } | null }[] };
    expect(listed.alarms[0]?.acknowledged?.by).toBe('admin token');

    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'templates-device')).toEqual([]);
    await page.setViewportSize(VIEWPORTS.phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Pointed at a host name that never resolves (.invalid), the device goes down: the page follows.
    const patched = await fetch(`${server.url}/devices/${deviceId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ variables: { ICMP_IPAddress: 'nothing.invalid' } }),
    });
    expect(patched.status).toBe(200);
    await expect
      .poll(() => page.locator('.tpl-facts').textContent(), { timeout: 20_000 })
      .toMatch(/State\s*down The device .+\. The driver said: .+/);
    // Why is said once, in the facts, in words; the events say the change.
    const events = (await page.getByRole('list', { name: 'Recent events' }).textContent()) ?? '';
    expect(events).toMatch(/State down: The device/);
    expect(await page.getByText(/The driver said:/).count()).toBe(1);
    expect(await checkLook(page, 'templates-device-down')).toEqual([]);
    await expect.poll(() => page.locator('.tpl-facts').textContent()).toContain('ICMP_IPAddress=nothing.invalid');
    await expect.poll(() => rtt.textContent()).toMatch(/no valuebad/);
    expect(await notReloaded(page)).toBe(true);
    await page.close();
    expect(unexpected(errors, [401])).toEqual([]);
  }, 90_000);

  it('asks for the token to read, adds a device by keyboard with it, shows a 422, removes it', async () => {
    const { page, errors } = await openWatchedPage(browser, VIEWPORTS.phone);
    page.setDefaultTimeout(5000);
    await page.goto(`${server.url}/?devices`);
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement;
        return element?.getAttribute('aria-label') ?? element?.closest('label')?.firstChild?.textContent?.trim();
      });

    // 401 on reading the devices: the token field takes the focus; Enter there reads them with it.
    const tokenField = page.getByRole('textbox', { name: 'Write token' });
    await tokenField.waitFor();
    expect(await tokenField.getAttribute('type')).toBe('password');
    expect(await focused()).toBe('Write token');
    // Not "Loading devices…" while nothing loads: the page says what it waits for.
    await expect.poll(() => page.getByText(/^The devices are listed once the service has a token/).count()).toBe(1);
    expect(await page.getByText('Loading devices…').count()).toBe(0);
    const help = page.locator('#tpl-token-help');
    expect(await help.textContent()).toMatch(/^This service needs a token to read devices/);
    // A wrong token is refused (401: the service knows only its own tokens): asked again, saying so.
    await page.keyboard.type('not-the-write-token');
    await page.keyboard.press('Enter');
    await expect.poll(() => help.textContent()).toMatch(/^The service did not accept that token: it is mistyped/);
    await expect.poll(() => tokenField.inputValue()).toBe('');
    await expect.poll(focused).toBe('Write token');
    expect(await checkLook(page, 'templates-token-rejected')).toEqual([]);
    await page.keyboard.type(TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /loopback/ }).waitFor();
    expect(await tokenField.count()).toBe(0);
    const value = page.getByLabel('Value of ICMP_IPAddress');
    await value.waitFor();
    const drivers = page.getByLabel('Driver settings (JSON)');
    expect(JSON.parse(await drivers.inputValue())).toEqual({ 'svc-ds-drv-icmp': {} });

    // Name, then Tab through the template version, the variable (left empty) to the driver settings.
    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('second');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Template version');
    expect(await page.getByLabel('Template version').locator('option:checked').textContent()).toBe(`${TEMPLATE}@1.0.0`);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Name of variable 1');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Value of ICMP_IPAddress');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Driver settings (JSON)');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('{"svc-ds-drv-icmp": {"count": 1, "timeout": 500}}');
    await page.keyboard.press('Tab');
    // The token given for reading also writes: the form is sent with it, not asked again.
    await page.keyboard.press('Enter');

    // 422: the missing variable, at its field, which takes the focus.
    await expect.poll(() => value.getAttribute('aria-invalid')).toBe('true');
    const summary = (await page.getByRole('list', { name: 'Problems' }).textContent()) ?? '';
    // The field as the form names it, not the API's JSON Pointer.
    expect(summary).toContain('Value of ICMP_IPAddress: ');
    expect(summary).not.toContain('/variables/');
    const described = await value.getAttribute('aria-describedby');
    expect(await page.locator(`#${described ?? 'none'}`).textContent()).not.toBe('');
    expect(await tokenField.count()).toBe(0);
    // The field is marked when the form renders the problems; it takes the focus right after.
    await expect.poll(focused).toBe('Value of ICMP_IPAddress');
    expect(await checkLook(page, 'templates-add-device-problem')).toEqual([]);
    await value.focus();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await page.keyboard.type('127.0.0.1');
    await page.keyboard.press('Enter');

    const added = page.getByRole('row', { name: /second/ });
    await added.waitFor();
    expect(await page.getByRole('status').textContent()).toBe('Added second.');
    expect(await value.getAttribute('aria-invalid')).toBeNull();
    const stored = (await (
      await fetch(`${server.url}/devices`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as {
      devices: { name: string; variables: Record<string, string>; drivers: Record<string, unknown> }[];
    };
    expect(stored.devices.find((d) => d.name === 'second')).toMatchObject({
      variables: { ICMP_IPAddress: '127.0.0.1' },
      drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 500 } },
    });

    // Remove, by keyboard, with its confirm step; the token given before is still known.
    const activeText = () => page.evaluate(() => document.activeElement?.textContent);
    await added.getByRole('button', { name: 'Remove second' }).focus();
    await page.keyboard.press('Enter');
    expect(await activeText()).toBe('Confirm remove second');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused()).toBe('Remove second');
    await page.keyboard.press('Enter');
    expect(await activeText()).toBe('Confirm remove second');
    await page.keyboard.press('Enter');
    await expect.poll(() => added.count()).toBe(0);
    await expect.poll(activeText).toBe('Devices');
    expect(await page.getByRole('status').textContent()).toBe('Removed second.');
    expect(await page.getByRole('row', { name: /loopback/ }).count()).toBe(1);
    await page.close();
    expect(unexpected(errors, [401, 403, 422])).toEqual([]);
  }, 90_000);
});
