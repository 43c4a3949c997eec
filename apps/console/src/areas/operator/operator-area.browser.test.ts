/**
 * The operator journeys in a real browser: the node manager on port 0 (SQLite in a temporary
 * directory, authentication on, admin/Admin123), Chromium through playwright-core, axe-core.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNodeManagerServer, type RunningNodeManagerServer } from '@triad/node-manager-service';
import {
  consoleBuilt,
  describeInBrowser,
  launchBrowser,
  openWatchedPage,
  saveScreenshot,
  seriousAxeViolations,
  VIEWPORTS,
} from '../../test-support/browser.js';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

describeInBrowser('operator console in Chromium', () => {
  let server: RunningNodeManagerServer;
  let browser: Browser;
  let dataDir = '';
  let nodeId = '';
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { ...ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as unknown;
  };

  beforeAll(async () => {
    if (!consoleBuilt()) throw new Error('the console is not built: npm run build -w apps/console');
    dataDir = await mkdtemp(path.join(tmpdir(), 'console-operator-'));
    server = await startNodeManagerServer(
      { port: 0, dataDir, demo: false },
      { env: { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent', TRIAD_ADMIN_PASSWORD: 'Admin123' } },
    );
    // A node nobody runs: the manager keeps it STOPPED or DOWN.
    nodeId = (
      (await api('POST', '/api/topo/action/add-node', { name: 'ghost@localhost', cookie: 'c' })) as {
        id: string;
      }
    ).id;
    await server.core.alarms.raise({ alarmId: 'disk_almost_full', nodeId });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('signs in with the keyboard only, lists the node, acknowledges its alarm and sees REST changes live', async () => {
    const { page, errors } = await openWatchedPage(browser);
    await page.goto(`${server.url}/`);
    await page.getByLabel('Username').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'operator-sign-in');
    // Keyboard only: skip link, then Tab into the form fields, Enter submits.
    await page.getByLabel('Username').focus();
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Admin123');
    await page.keyboard.press('Enter');

    const row = page.getByRole('row', { name: /ghost@localhost/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(0).textContent()).toMatch(/STOPPED|DOWN/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'operator-nodes');

    // A state change made elsewhere appears without a reload (WebSocket).
    await server.core.topology.setNodeState(nodeId, 'UP');
    await row.getByRole('cell', { name: 'UP', exact: true }).waitFor({ timeout: 2000 });

    await page.getByRole('link', { name: 'Alarms', exact: true }).click();
    const alarm = page.getByRole('row', { name: /disk_almost_full/ });
    await alarm.getByRole('button', { name: 'Acknowledge' }).click();
    await alarm.getByRole('button', { name: 'Unacknowledge' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'operator-alarms');

    // Unacknowledged through the REST API: the row changes back within 2 s.
    const [listed] = ((await api('GET', '/api/alarm?tags=all')) as { alarms: { rawSrc: string }[] }).alarms;
    await api('POST', '/api/alarm/unacknowledge', {
      userId: 'admin',
      alarmId: 'disk_almost_full',
      alarmSrc: listed?.rawSrc,
    });
    await alarm.getByRole('button', { name: 'Acknowledge' }).waitFor({ timeout: 2000 });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works on a 390-px-wide screen', async () => {
    const { page, errors } = await openWatchedPage(browser, VIEWPORTS.phone);
    await page.goto(`${server.url}/alarms`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('Admin123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('row', { name: /disk_almost_full/ }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
