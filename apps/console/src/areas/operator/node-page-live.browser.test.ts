/**
 * Live updates of the nodes list and a node's page in a real browser: changes made through the
 * REST API or by the service itself appear over the WebSocket without a reload.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInBrowser, openWatchedPage, seriousAxeViolations } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

/**
 * How long a pushed change may take to show: generous, because the whole suite shares two cores
 * with Chromium and the service (a wait for a condition, not a timing check).
 */
const LIVE_TIMEOUT_MS = 10_000;

describeInBrowser('live nodes list and node page in Chromium', () => {
  let nodeId = '';
  const nm = useNodeManagerConsole('console-live-', async ({ api, server }) => {
    nodeId = (
      (await api('POST', '/api/topo/action/add-node', { name: 'ghost@localhost', cookie: 'c' })) as { id: string }
    ).id;
    await server.core.alarms.raise({ alarmId: 'disk_almost_full', nodeId });
    await server.core.logs.store.append(nodeId, [
      { timeUs: (Date.now() - 60_000) * 1000, level: 'error', kind: 'logger_event', text: 'first entry' },
    ]);
  });
  const { api } = nm;

  const signIn = async (url: string) => {
    const watched = await openWatchedPage(nm.browser);
    watched.page.setDefaultTimeout(5000);
    // Keeps every WebSocket the page opens, so a test can drop them, and counts their authentications.
    await watched.page.addInitScript(() => {
      const Native = window.WebSocket;
      const live = { sockets: [] as WebSocket[], authenticated: 0, messages: [] as string[] };
      Object.assign(window, { live });
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          live.sockets.push(this);
          this.addEventListener('message', (message: MessageEvent<string>) => {
            live.messages.push(message.data);
            if (message.data.includes('"type":"authenticated"')) live.authenticated++;
          });
        }
      };
    });
    await watched.page.goto(url);
    await watched.page.getByLabel('Username').fill('admin');
    await watched.page.getByLabel('Password').fill('Admin123');
    await watched.page.getByRole('button', { name: 'Sign in' }).click();
    // Set after sign-in: a reload would lose it.
    await watched.page.evaluate(() => Object.assign(window, { notReloaded: true }));
    return watched;
  };
  const notReloaded = (page: Page) =>
    page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

  it('shows nodes added and removed through the REST API without a reload', async () => {
    const { page, errors } = await signIn(`${nm.server.url}/nodes`);
    await page.getByRole('row', { name: /ghost@localhost/ }).waitFor();
    const added = (await api('POST', '/api/topo/action/add-node', { name: 'other@localhost', cookie: 'c' })) as {
      id: string;
    };
    const other = page.getByRole('row', { name: /other@localhost/ });
    await other.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await api('DELETE', `/api/topo/node/${added.id}`);
    await other.waitFor({ state: 'detached', timeout: LIVE_TIMEOUT_MS });
    expect(await notReloaded(page)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reads the node page again when the WebSocket comes back after a drop', async () => {
    await nm.server.core.topology.setNodeState(nodeId, 'STOPPED');
    const { page, errors } = await signIn(`${nm.server.url}/nodes/${nodeId}`);
    const facts = page.getByRole('region', { name: 'Facts' });
    const alarms = page.getByRole('region', { name: 'Alarms' });
    await facts
      .getByRole('definition')
      .filter({ hasText: /^\W*STOPPED$/ })
      .waitFor();
    await alarms.getByRole('listitem').first().waitFor();
    type Live = { live: { sockets: WebSocket[]; authenticated: number } };
    const authentications = () => page.evaluate(() => (window as unknown as Live).live.authenticated);
    while ((await authentications()) === 0) await page.waitForTimeout(50);
    // Dropped: the changes below send frames to nobody; the console reconnects after 1 s.
    await page.evaluate(() => {
      for (const socket of (window as unknown as Live).live.sockets) socket.close();
    });
    await nm.server.core.topology.setNodeState(nodeId, 'DOWN');
    await nm.server.core.alarms.raise({ alarmId: 'missed_while_down', nodeId });
    await facts
      .getByRole('definition')
      .filter({ hasText: /^\W*DOWN$/ })
      .waitFor({ timeout: LIVE_TIMEOUT_MS });
    await alarms.getByRole('listitem').filter({ hasText: 'missed_while_down' }).waitFor({ timeout: LIVE_TIMEOUT_MS });
    expect(await authentications()).toBe(2);
    expect(await notReloaded(page)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("follows the node's state, alarms and logs on its page without a reload", async () => {
    const { page, errors } = await signIn(`${nm.server.url}/nodes/${nodeId}`);
    const facts = page.getByRole('region', { name: 'Facts' });
    const alarms = page.getByRole('region', { name: 'Alarms' });
    const logs = page.getByRole('region', { name: 'Logs' });
    const alarm = (id: string) => alarms.getByRole('listitem').filter({ hasText: id });
    await alarm('disk_almost_full').waitFor();
    await logs.getByText('first entry').waitFor();
    const state = facts.getByRole('definition').first();
    expect(await state.textContent()).toMatch(/^\W*(STOPPED|DOWN)$/);
    // The page is drawn from REST; the service pushes changes only once the socket has
    // authenticated (it subscribes as it says so), and a change before that is never sent.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { live: { authenticated: number } }).live.authenticated), {
        timeout: LIVE_TIMEOUT_MS,
      })
      .toBeGreaterThan(0);

    await nm.server.core.topology.setNodeState(nodeId, 'UP');
    // The service's connector finds the ghost node gone again and may say so at once (a node seen
    // UP and lost is DOWN), and the page may draw only the last of two quick changes: the UP must
    // reach the page over its WebSocket, and the page then shows the state the service holds.
    const received = () => page.evaluate(() => (window as unknown as { live: { messages: string[] } }).live.messages);
    await expect
      .poll(async () => (await received()).some((m) => m.includes('"type":"node_state"') && m.includes('"UP"')), {
        timeout: LIVE_TIMEOUT_MS,
      })
      .toBe(true);
    await expect
      .poll(
        async () => {
          const held = ((await api('GET', `/api/topo/node/${nodeId}`)) as { state: string }).state;
          return ((await state.textContent()) ?? '').replace(/^\W*/, '') === held;
        },
        { timeout: LIVE_TIMEOUT_MS },
      )
      .toBe(true);

    await nm.server.core.alarms.raise({ alarmId: 'queue_too_long', nodeId, severity: 'major' });
    await alarm('queue_too_long').waitFor({ timeout: LIVE_TIMEOUT_MS });
    await alarms.getByRole('status').getByText('queue_too_long raised.').waitFor();
    const listed = (
      (await api('GET', `/api/alarm/node/${nodeId}?tags=all`)) as {
        alarms: { alarmId: string; rawSrc: string }[];
      }
    ).alarms;
    const disk = listed.find((a) => a.alarmId === 'disk_almost_full');
    await api('POST', '/api/alarm/clear', { userId: 'admin', alarmId: 'disk_almost_full', alarmSrc: disk?.rawSrc });
    await alarm('disk_almost_full').waitFor({ state: 'detached', timeout: LIVE_TIMEOUT_MS });

    await nm.server.core.logs.record({ id: nodeId, name: 'ghost@localhost' }, [
      { timeUs: Date.now() * 1000, level: 'warning', kind: 'logger_event', text: 'pushed entry' },
    ]);
    await logs.getByText('pushed entry').waitFor({ timeout: LIVE_TIMEOUT_MS });
    const entries = await logs.getByRole('listitem').allTextContents();
    expect(entries[0]).toContain('pushed entry');
    expect(entries[1]).toContain('first entry');

    expect(await notReloaded(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
