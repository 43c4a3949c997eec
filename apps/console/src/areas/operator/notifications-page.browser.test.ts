/**
 * The Notifications page in a real browser: the node manager on port 0 (SQLite, authentication on,
 * admin/Admin123) with loopback admitted for notifications and one attempt per notification, a
 * local HTTP receiver that answers 500, Chromium through playwright-core, axe-core.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLook, describeInBrowser, openWatchedPage, seriousAxeViolations } from '../../test-support/browser.js';
import { useNodeManagerConsole } from '../../test-support/node-manager-console.js';

const LONG_NAME = 'Operations on-call webhook for the payment cluster in Frankfurt and Amsterdam';

describeInBrowser('operator Notifications page in Chromium', () => {
  let receiver: Server | undefined;
  let hits = 0;
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      hits += 1;
      request.resume();
      response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver is down');
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });
  const nm = useNodeManagerConsole('console-notify-', undefined, {
    env: { TRIAD_NOTIFY_ALLOW: '127.0.0.1', TRIAD_NOTIFY_MAX_ATTEMPTS: '1', TRIAD_NOTIFY_POLL_MS: '200' },
  });
  const { api } = nm;

  it('adds a channel (a field error first), subscribes, shows a failed delivery, deletes; the API agrees', async () => {
    const { page, errors } = await openWatchedPage(nm.browser);
    page.setDefaultTimeout(10_000);
    await page.goto(`${nm.server.url}/`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('Admin123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/notifications');
    await page.getByText('No channels yet.').waitFor();

    // A secret too short: the error sits at its field, which gets the focus; nothing is sent.
    const url = `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/hook`;
    await page.getByLabel('Channel name (optional)').fill(LONG_NAME);
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('Signing secret').fill('short');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const secret = page.getByLabel('Signing secret');
    await expect.poll(() => secret.getAttribute('aria-invalid')).toBe('true');
    expect(await secret.evaluate((el) => el === document.activeElement)).toBe(true);
    const describedBy = (await secret.getAttribute('aria-describedby')) ?? '';
    const errorText = await page.locator(`[id="${describedBy.split(' ')[0]!}"]`).textContent();
    expect(errorText).toContain('at least 16 characters');
    expect(await api('GET', '/api/notifications/channels')).toEqual({ channels: [] });
    expect(await checkLook(page, 'operator-notifications-refused')).toEqual([]);

    // Corrected: added; the secret is never shown back, only that it is set.
    await secret.fill('whsec-0123456789abcdef');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('status').getByText(`Channel ${LONG_NAME} added.`).waitFor();
    await page.getByRole('rowheader', { name: LONG_NAME }).waitFor();
    expect(await page.content()).not.toContain('whsec-0123456789abcdef');
    await page.getByText(`${url} (secret set)`).waitFor();
    const channels = (await api('GET', '/api/notifications/channels')) as { channels: { id: string; name: string }[] };
    expect(channels.channels.map((c) => c.name)).toEqual([LONG_NAME]);

    // Subscribe the admin from warning up; an alarm then fails at the receiver and shows as failed.
    await page.getByLabel('From severity').selectOption('warning');
    await page.getByLabel('Alarm ids (optional)').fill('disk_almost_full');
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByRole('status').getByText(`Subscribed to ${LONG_NAME}.`).waitFor();
    const subs = (await api('GET', '/api/notifications/subscriptions?username=admin')) as {
      subscriptions: { minSeverity: string; alarmIds: string[] }[];
    };
    expect(subs.subscriptions).toEqual([
      expect.objectContaining({ minSeverity: 'warning', alarmIds: ['disk_almost_full'] }),
    ]);
    const node = await nm.server.core.topology.addNode('notify_console@127.0.0.1', 'cookie');
    await nm.server.core.alarms.raise({
      alarmId: 'disk_almost_full',
      nodeId: node.id,
      severity: 'major',
      description: 'disk / is 97 % full',
    });
    await expect.poll(() => hits, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect
      .poll(async () => {
        const log = (await api('GET', '/api/notifications/deliveries')) as { deliveries: { status: string }[] };
        return log.deliveries.map((d) => d.status);
      })
      .toEqual(['failed']);
    await page.reload();
    const failed = page.getByRole('row').filter({ hasText: 'disk_almost_full raised' });
    await failed.getByText('failed', { exact: true }).waitFor();
    await failed.getByText('HTTP 500').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'operator-notifications')).toEqual([]);

    // Unsubscribe, then delete the channel with its confirm step.
    await page.getByRole('button', { name: `Unsubscribe from ${LONG_NAME}` }).click();
    await page.getByRole('status').getByText(`Unsubscribed from ${LONG_NAME}.`).waitFor();
    expect(await api('GET', '/api/notifications/subscriptions?username=admin')).toEqual({ subscriptions: [] });
    await page.getByRole('button', { name: `Delete channel ${LONG_NAME}` }).click();
    await page.getByRole('button', { name: `Confirm delete ${LONG_NAME}` }).click();
    await page.getByText('No channels yet.').waitFor();
    expect(await api('GET', '/api/notifications/channels')).toEqual({ channels: [] });
    expect(errors).toEqual([]);
    await page.close();
  });
});
