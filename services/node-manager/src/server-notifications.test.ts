import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeManagerServer, type RunningNodeManagerServer } from './server.js';
import { startHttpReceiver, type HttpTestReceiver } from './test-support/http-test-receiver.js';
import { waitFor } from '@triad/device-drivers/testing';

const PASSWORD = 'adminpw123';
const AUTH = { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

interface Hook {
  readonly type: string;
  readonly alarm: { alarmId: string; nodeName: string; source: string };
}

describe('startNodeManagerServer with a webhook subscribed', () => {
  let dataDir = '';
  let receiver: HttpTestReceiver;
  let server: RunningNodeManagerServer;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-notify-'));
    receiver = await startHttpReceiver();
    const env = {
      TRIAD_SCRYPT_COST: '16',
      TRIAD_LOG_LEVEL: 'silent',
      TRIAD_ADMIN_PASSWORD: PASSWORD,
      TRIAD_NOTIFY_ALLOW: '127.0.0.1',
      TRIAD_NOTIFY_POLL_MS: '50',
      TRIAD_NODE_DOWN_ALARM_AFTER_MS: '0',
    };
    server = await startNodeManagerServer({ host: '127.0.0.1', port: 0, dataDir }, { env });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = async (url: string, body: unknown) => {
    const response = await fetch(`${server.url}${url}`, {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json() as Promise<{ id: string }>;
  };
  const hooks = () => receiver.requests.map((r) => JSON.parse(r.body) as Hook);

  it("sends the monitor's node_down alarm, and its acknowledgement and clear over the API", async () => {
    const channel = await post('/api/notifications/channels', {
      type: 'webhook',
      url: receiver.url('/alarms'),
      secret: 'a-webhook-secret-of-some-length',
    });
    await post('/api/notifications/subscriptions', { channelId: channel.id, alarmIds: ['node_down'] });
    // Nothing listens for this node: the monitor raises node_down, the worker delivers it on its own.
    await post('/api/topo/action/add-node', { name: 'nobody_home@127.0.0.1', cookie: 'c' });
    await waitFor(() => hooks().some((h) => h.type === 'alarm.raised'), 15_000, 'the node_down notification');
    const raised = hooks().find((h) => h.type === 'alarm.raised')!;
    expect(raised.alarm).toMatchObject({ alarmId: 'node_down', nodeName: 'nobody_home@127.0.0.1' });
    const action = { userId: 'admin', alarmId: 'node_down', alarmSrc: raised.alarm.source };
    expect(
      (
        await fetch(`${server.url}/api/alarm/acknowledge`, {
          method: 'POST',
          headers: JSON_AUTH,
          body: JSON.stringify(action),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${server.url}/api/alarm/clear`, {
          method: 'POST',
          headers: JSON_AUTH,
          body: JSON.stringify(action),
        })
      ).status,
    ).toBe(200);
    await waitFor(() => hooks().length >= 3, 10_000, 'the acknowledgement and clear notifications');
    // The acknowledgement and the clear may leave in one batch, in either order.
    expect(
      hooks()
        .map((h) => h.type)
        .sort(),
    ).toEqual(['alarm.acknowledged', 'alarm.cleared', 'alarm.raised']);
    const deliveries = (await (
      await fetch(`${server.url}/api/notifications/deliveries?status=delivered`, { headers: AUTH })
    ).json()) as {
      deliveries: unknown[];
    };
    expect(deliveries.deliveries).toHaveLength(3);
  });
});
