/**
 * The operator journeys in a real browser: the node manager on port 0 (SQLite in a temporary
 * directory, authentication on, admin/Admin123), Chromium through playwright-core, axe-core.
 */
import { expect, it } from 'vitest';
import {
  checkLook,
  describeInBrowser,
  openWatchedPage,
  seriousAxeViolations,
  VIEWPORTS,
} from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

describeInBrowser('operator console in Chromium', () => {
  let nodeId = '';
  const nm = useNodeManagerConsole('console-operator-', async ({ api, server }) => {
    // A node nobody runs: the manager keeps it STOPPED or DOWN.
    nodeId = (
      (await api('POST', '/api/topo/action/add-node', { name: 'ghost@localhost', cookie: 'c' })) as {
        id: string;
      }
    ).id;
    await server.core.alarms.raise({ alarmId: 'disk_almost_full', nodeId });
    // Facts from when it ran: its uptime must not show while it is stopped.
    await server.core.facts.put(nodeId, {
      otpRelease: '26',
      ertsVersion: '14.2.5',
      uptimeMs: 3_600_000,
      processCount: 1,
      totalMemory: 1024,
      applications: [],
      booting: false,
      readAt: Date.now(),
    });
  });
  const { api } = nm;

  it('signs in with the keyboard only, lists the node, acknowledges its alarm and sees REST changes live', async () => {
    const { page, errors } = await openWatchedPage(nm.browser);
    await page.goto(`${nm.server.url}/`);
    await page.getByLabel('Username').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'operator-sign-in')).toEqual([]);
    // Keyboard only: skip link, then Tab into the form fields, Enter submits.
    await page.getByLabel('Username').focus();
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Admin123');
    await page.keyboard.press('Enter');

    const row = page.getByRole('row', { name: /ghost@localhost/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(0).textContent()).toMatch(/STOPPED|DOWN/);
    // A node that does not run has no uptime, whatever its last facts said.
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('—');
    // The sign-in holds for the browser session: a reload (or the top bar's way to another
    // service's console and back) keeps it, from sessionStorage, never localStorage.
    await page.reload();
    await row.waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'operator-nodes')).toEqual([]);

    // A state change made elsewhere appears without a reload (WebSocket).
    await nm.server.core.topology.setNodeState(nodeId, 'UP');
    await row.getByRole('cell', { name: 'UP', exact: true }).waitFor({ timeout: 10_000 });

    await page.getByRole('link', { name: /^Alarms( \d+\+? new)?$/ }).click();
    const alarm = page.getByRole('row', { name: /disk_almost_full/ });
    await alarm.getByRole('button', { name: 'Acknowledge' }).click();
    await alarm.getByRole('button', { name: 'Unacknowledge' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'operator-alarms')).toEqual([]);

    // Unacknowledged through the REST API: the row changes back within 2 s.
    const [listed] = ((await api('GET', '/api/alarm?tags=all')) as { alarms: { rawSrc: string }[] }).alarms;
    await api('POST', '/api/alarm/unacknowledge', {
      userId: 'admin',
      alarmId: 'disk_almost_full',
      alarmSrc: listed?.rawSrc,
    });
    await alarm.getByRole('button', { name: 'Acknowledge' }).waitFor({ timeout: 10_000 });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Signed out means forgotten: a reload asks again.
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a node page from the list with its facts, charts over a chosen range, alarms and logs', async () => {
    const now = Date.now();
    await nm.server.core.topology.setNodeState(nodeId, 'UP');
    await nm.server.core.facts.put(nodeId, {
      otpRelease: '26',
      ertsVersion: '14.2.5',
      uptimeMs: 3_600_000,
      processCount: 321,
      totalMemory: 40 * 1024 * 1024,
      applications: [{ name: 'kernel', description: 'ERTS  CXC 138 10', version: '9.2' }],
      booting: false,
      readAt: now,
    });
    // History through the service's own metric history: three samples within the hour, one 5 h ago.
    for (const [ago, processes] of [
      [5 * 3_600_000, 90],
      [40 * 60_000, 100],
      [20 * 60_000, 140],
      [5 * 60_000, 120],
    ] as const) {
      await nm.server.core.metricHistory.record(nodeId, now - ago, [
        { name: 'erlang_vm_process_count', value: processes },
        { name: 'erlang_vm_memory_bytes_total', labels: { kind: 'processes' }, value: processes * 1000 },
        { name: 'erlang_vm_memory_bytes_total', labels: { kind: 'system' }, value: 20_000_000 },
      ]);
    }
    await nm.server.core.logs.store.append(nodeId, [
      { timeUs: now * 1000, level: 'error', kind: 'logger_event', text: 'disk /var is nearly full' },
    ]);

    const { page, errors } = await openWatchedPage(nm.browser);
    const metricRequests: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/metrics/node/')) metricRequests.push(url);
    });
    await page.goto(`${nm.server.url}/nodes`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('Admin123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Keyboard: focus the node's link and follow it with Enter.
    await page.getByRole('link', { name: 'ghost@localhost' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'ghost@localhost' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/nodes/${nodeId}`);

    const facts = page.getByRole('region', { name: 'Facts' });
    await facts.getByText('14.2.5').waitFor();
    const text = await facts.textContent();
    for (const shown of ['State', 'UP', 'Family', 'OTP release', '26', 'Processes', '321', '40.0 MiB', 'kernel', '9.2'])
      expect(text).toContain(shown);

    const processes = page.getByRole('figure', { name: 'Processes', exact: true });
    await processes.locator('canvas').first().waitFor();
    await processes.getByText('latest 120, min 100, max 140 (3 points)').waitFor();
    const memory = page.getByRole('figure', { name: 'Memory by kind' });
    await memory.locator('canvas').first().waitFor();
    expect(await memory.textContent()).toContain('system: latest 19.1 MiB');
    await page.getByRole('figure', { name: 'Run queue' }).waitFor({ state: 'detached' });

    const hour = page.getByRole('button', { name: '1 h' });
    const day = page.getByRole('button', { name: '24 h' });
    expect(await hour.getAttribute('aria-pressed')).toBe('true');
    expect(await day.getAttribute('aria-pressed')).toBe('false');
    const before = metricRequests.filter((u) => u.searchParams.get('name') === 'erlang_vm_process_count');
    expect(before).toHaveLength(1);
    const span = (u: URL | undefined) => Number(u?.searchParams.get('to')) - Number(u?.searchParams.get('from'));
    expect(span(before[0])).toBe(3_600_000);
    await day.focus();
    await page.keyboard.press('Enter');
    await processes.getByText('latest 120, min 90, max 140 (4 points)').waitFor();
    expect(await day.getAttribute('aria-pressed')).toBe('true');
    expect(await hour.getAttribute('aria-pressed')).toBe('false');
    const after = metricRequests.filter((u) => u.searchParams.get('name') === 'erlang_vm_process_count');
    expect(after).toHaveLength(2);
    expect(span(after[1])).toBe(86_400_000);
    expect(Number(after[1]?.searchParams.get('from'))).toBeLessThan(Number(after[0]?.searchParams.get('from')));
    await processes.locator('canvas').first().waitFor();

    await page.getByRole('region', { name: 'Alarms' }).getByText('disk_almost_full').waitFor();
    await page.getByRole('region', { name: 'Logs' }).getByText('disk /var is nearly full').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'operator-node')).toEqual([]);
    // The charts are canvases (no page check reads them): their axis text is drawn in the theme's
    // ink, dark on the light page and light on the dark one, redrawn when the setting changes.
    // Near-white and near-black pixels only: the grid lines (--line) are neither.
    const inkPixels = () =>
      processes
        .locator('canvas')
        .first()
        .evaluate((canvas: HTMLCanvasElement) => {
          const { data } = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height) ?? { data: [] };
          let light = 0;
          let dark = 0;
          for (let i = 0; i < data.length; i += 4) {
            if ((data[i + 3] ?? 0) < 200) continue;
            const level = ((data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0)) / 3;
            if (level > 215) light++;
            else if (level < 50) dark++;
          }
          return { light, dark };
        });
    // (The points are filled with the page's ground: a few pixels of the other kind.)
    const onLight = await inkPixels();
    expect(onLight.dark).toBeGreaterThan(Math.max(100, 5 * onLight.light));
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await inkPixels()).light).toBeGreaterThan(100);
    const onDark = await inkPixels();
    expect(onDark.light).toBeGreaterThan(5 * onDark.dark);
    await page.emulateMedia({ colorScheme: 'light' });

    // The same page on a phone: nothing wider than the screen.
    await page.setViewportSize(VIEWPORTS.phone);
    await processes.locator('canvas').first().waitFor();
    await page.waitForTimeout(100);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works on a 390-px-wide screen', async () => {
    const { page, errors } = await openWatchedPage(nm.browser, VIEWPORTS.phone);
    await page.goto(`${nm.server.url}/alarms`);
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
