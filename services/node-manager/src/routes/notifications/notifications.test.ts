import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';
import { ADMIN, basic, resetData, useTestApp } from '../../test-support/node-manager-test-app.js';
import { startHttpReceiver, type HttpTestReceiver } from '../../test-support/http-test-receiver.js';

const JSON_HEADERS = { 'content-type': 'application/json', ...ADMIN };
const WEBHOOK_SECRET = 'whsec-0123456789abcdef-webhook';
const SLACK_TOKEN = 'XXslackTOKEN1234567890';
const ROUTING_KEY = 'R0UTINGKEY0123456789abcdef';
const SMTP_PASSWORD = 'smtp-password-0123';

interface Channel {
  readonly id: string;
  readonly secrets: string[];
  readonly [key: string]: unknown;
}
interface Attempt {
  readonly attempt: number;
  readonly startedAt: number;
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly reply: string | null;
}
interface DeliveryReply {
  readonly id: string;
  readonly status: string;
  readonly nextAttemptAt: number | null;
  readonly attemptCount: number;
  readonly alarm: { action: string; alarmId: string };
  readonly attempts: Attempt[];
}

describeEachDatabase<NodeManagerDatabase>('node-manager notifications', (getDb) => {
  const t = useTestApp(getDb, {
    overrides: {
      notifyAllow: '127.0.0.1',
      notifyTimeoutMs: 300,
      notifyRetryBaseMs: 10,
      notifyMaxAttempts: 3,
    },
    resetEachTest: false,
  });
  let receiver: HttpTestReceiver;
  let nodeId = '';
  beforeAll(async () => {
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(async () => {
    await resetData(getDb(), t.core);
    receiver.requests.length = 0;
    receiver.answer(() => ({ status: 200 }));
    nodeId = (await t.core.topology.addNode('notify_1@127.0.0.1', 'c')).id;
  });

  const post = (url: string, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    t.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
  const get = (url: string, headers: Record<string, string> = ADMIN) => t.app.inject({ method: 'GET', url, headers });
  const channel = async (body: Record<string, unknown>) => {
    const response = await post('/api/notifications/channels', body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Channel>();
  };
  const subscribe = async (channelId: string, extra: Record<string, unknown> = {}) => {
    const response = await post('/api/notifications/subscriptions', { channelId, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: string }>();
  };
  /** Lets the queued notifications be written, then delivers everything due. */
  const deliver = async () => {
    await t.core.notifications.enqueuer.idle();
    return t.core.notifications.worker.runOnce();
  };
  const raise = async (alarmId: string, severity = 'major') =>
    (await t.core.alarms.raise({ alarmId, nodeId, severity, description: `${alarmId} is high` })).alarm;
  const deliveries = async (query = '') =>
    (await get(`/api/notifications/deliveries${query}`)).json<{ deliveries: DeliveryReply[] }>().deliveries;

  it('stores channel secrets sealed and never returns them', async () => {
    const created = [
      await channel({ type: 'webhook', name: 'ops hook', url: receiver.url('/hook'), secret: WEBHOOK_SECRET }),
      await channel({ type: 'slack', url: `https://hooks.slack.com/services/T000/B000/${SLACK_TOKEN}` }),
      await channel({ type: 'pagerduty', routingKey: ROUTING_KEY }),
      await channel({
        type: 'email',
        host: '127.0.0.1',
        port: 2525,
        user: 'triad',
        password: SMTP_PASSWORD,
        from: 'triad@example.com',
        to: ['ops@example.com'],
      }),
    ];
    expect(created.map((c) => c.secrets)).toEqual([['secret'], ['url'], ['routingKey'], ['password']]);
    expect(created[2]).toMatchObject({ type: 'pagerduty', url: 'https://events.pagerduty.com/v2/enqueue' });
    expect(created[3]).toMatchObject({ starttls: true, user: 'triad', ca: false });
    const listed = await get('/api/notifications/channels');
    expect(listed.json<{ channels: Channel[] }>().channels).toHaveLength(4);
    const stored = JSON.stringify(await getDb().db.selectFrom('nm_notification_channels').selectAll().execute());
    for (const secret of [WEBHOOK_SECRET, SLACK_TOKEN, ROUTING_KEY, SMTP_PASSWORD]) {
      expect(listed.body).not.toContain(secret);
      expect(JSON.stringify(created)).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain('enc:v1:');
  });

  it.each([
    [{ type: 'webhook', url: 'ftp://example.com/x', secret: WEBHOOK_SECRET }, 'bad_channel_url'],
    [{ type: 'webhook', url: 'https://user:pw@example.com/x', secret: WEBHOOK_SECRET }, 'bad_channel_url'],
    [{ type: 'webhook', url: 'not a url', secret: WEBHOOK_SECRET }, 'bad_channel_url'],
    [{ type: 'webhook', url: `https://example.com/${'a'.repeat(2040)}`, secret: WEBHOOK_SECRET }, 'invalid_request'],
    [{ type: 'webhook', url: 'https://example.com/x' }, 'bad_channel'],
    [{ type: 'webhook', url: 'https://example.com/x', secret: 'short' }, 'invalid_request'],
    [{ type: 'slack', url: 'https://hooks.slack.com/x', routingKey: 'k' }, 'bad_channel'],
    [{ type: 'webhook', url: 'http://169.254.169.254/latest', secret: WEBHOOK_SECRET }, 'address_refused'],
    [{ type: 'webhook', url: 'http://10.1.2.3/hook', secret: WEBHOOK_SECRET }, 'address_refused'],
    [{ type: 'slack', url: 'http://localhost:9000/hook' }, 'address_refused'],
    [{ type: 'slack', url: 'http://[::1]:9000/hook' }, 'address_refused'],
    [{ type: 'slack', url: 'http://0x7f000002:9000/hook' }, 'address_refused'],
    // The node manager itself (port 8080 in tests) is never a target, even where loopback is allowed.
    [{ type: 'pagerduty', routingKey: ROUTING_KEY, url: 'http://127.0.0.1:8080/api/users' }, 'address_refused'],
    [{ type: 'email', host: '127.0.0.1', port: 25, from: 'a@b.c', to: [] }, 'invalid_request'],
    [
      {
        type: 'email',
        host: '127.0.0.1',
        port: 25,
        from: 'a@b.c',
        to: Array.from({ length: 21 }, (_, i) => `${i}@b.c`),
      },
      'invalid_request',
    ],
    [{ type: 'email', host: '127.0.0.1', port: 25, from: 'a@b.c', to: ['Ops <ops@b.c>'] }, 'bad_email_address'],
    [
      {
        type: 'email',
        host: '127.0.0.1',
        port: 25,
        starttls: false,
        user: 'u',
        password: 'p',
        from: 'a@b.c',
        to: ['o@b.c'],
      },
      'smtp_password_needs_tls',
    ],
    [{ type: 'email', host: '192.168.1.10', port: 25, from: 'a@b.c', to: ['o@b.c'] }, 'address_refused'],
  ])('refuses channel %# with %s', async (body, error) => {
    const response = await post('/api/notifications/channels', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error });
  });

  it('lets only admins manage channels, and users only their own subscriptions', async () => {
    await t.core.users.addUser('alice', 'alicepass1', 'user');
    await t.core.users.addUser('bob', 'bobpass12', 'user');
    const alice = basic('alice', 'alicepass1');
    const aliceJson = { 'content-type': 'application/json', ...alice };
    const hook = await channel({ type: 'webhook', url: receiver.url('/hook'), secret: WEBHOOK_SECRET });
    expect(
      (await post('/api/notifications/channels', { type: 'slack', url: 'https://x.example/y' }, aliceJson)).json(),
    ).toEqual({ error: 'not_admin' });
    expect((await get('/api/notifications/channels', alice)).json()).toEqual({ error: 'not_admin' });
    expect((await get('/api/notifications/deliveries', alice)).json()).toEqual({ error: 'not_admin' });
    const own = await post('/api/notifications/subscriptions', { channelId: hook.id, minSeverity: 'major' }, aliceJson);
    expect(own.json()).toMatchObject({ username: 'alice', minSeverity: 'major', tags: [], nodeFamilyId: null });
    const forBob = await post('/api/notifications/subscriptions', { channelId: hook.id, username: 'bob' }, aliceJson);
    expect(forBob.json()).toEqual({ error: 'not_admin' });
    const bobs = await subscribe(hook.id, { username: 'bob' });
    expect((await post('/api/notifications/subscriptions', { channelId: 'nope' }, aliceJson)).json()).toEqual({
      error: 'channel_not_found',
    });
    const aliceList = (await get('/api/notifications/subscriptions', alice)).json<{ subscriptions: unknown[] }>();
    expect(aliceList.subscriptions).toHaveLength(1);
    expect((await get('/api/notifications/subscriptions?username=bob', alice)).json()).toEqual({ error: 'not_admin' });
    expect(
      (await get('/api/notifications/subscriptions')).json<{ subscriptions: unknown[] }>().subscriptions,
    ).toHaveLength(2);
    const deleteBobs = await t.app.inject({
      method: 'DELETE',
      url: `/api/notifications/subscriptions/${bobs.id}`,
      headers: alice,
    });
    expect(deleteBobs.json()).toEqual({ error: 'subscription_not_found' });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/notifications/channels/${hook.id}`,
      headers: ADMIN,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await get('/api/notifications/subscriptions')).json()).toEqual({ subscriptions: [] });
  });

  it('signs webhook deliveries of a raise, an acknowledgement and a clear', async () => {
    const hook = await channel({ type: 'webhook', url: receiver.url('/hook'), secret: WEBHOOK_SECRET });
    await subscribe(hook.id, { minSeverity: 'minor' });
    const alarm = await raise('process_limit', 'major');
    await raise('quiet_alarm', 'warning');
    await t.core.alarms.acknowledge({ alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc, user: 'admin' });
    await t.core.alarms.clearByUser({ alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc, user: 'admin' });
    expect(await deliver()).toBe(3);
    const bodies = receiver.requests.map((request) => {
      const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(request.body).digest('hex')}`;
      expect(request.headers['x-triad-signature']).toBe(signature);
      expect(request.headers['content-type']).toBe('application/json');
      const body = JSON.parse(request.body) as { type: string; timestamp: number; alarm: Record<string, unknown> };
      expect(String(body.timestamp)).toBe(request.headers['x-triad-timestamp']);
      expect(Math.abs(body.timestamp * 1000 - Date.now())).toBeLessThan(60_000);
      return body;
    });
    expect(bodies.map((b) => b.type).sort()).toEqual(['alarm.acknowledged', 'alarm.cleared', 'alarm.raised']);
    expect(bodies.every((b) => b.alarm['alarmId'] === 'process_limit' && b.alarm['nodeName'] === 'notify_1@127.0.0.1'));
    expect(bodies.find((b) => b.type === 'alarm.acknowledged')?.alarm['ackUser']).toBe('admin');
    // A tampered body no longer matches its signature.
    const first = receiver.requests[0]!;
    const tampered = first.body.replace('process_limit', 'process_limiT');
    expect(`sha256=${createHmac('sha256', WEBHOOK_SECRET).update(tampered).digest('hex')}`).not.toBe(
      first.headers['x-triad-signature'],
    );
    const listed = await deliveries(`?channelId=${hook.id}&status=delivered`);
    expect(listed).toHaveLength(3);
    expect(listed[0]!.attempts).toEqual([expect.objectContaining({ attempt: 1, ok: true, statusCode: 200 })]);
    // Pages: offset skips the newest, in the same order.
    const pages = [await deliveries('?limit=2'), await deliveries('?limit=2&offset=2')];
    expect(pages.map((page) => page.length)).toEqual([2, 1]);
    expect([...pages[0]!, ...pages[1]!].map((d) => d.id)).toEqual(listed.map((d) => d.id));
  });

  it('sends Slack text and PagerDuty events with one dedup key per alarm instance', async () => {
    const slack = await channel({ type: 'slack', url: receiver.url(`/services/T0/B0/${SLACK_TOKEN}`) });
    const pager = await channel({ type: 'pagerduty', routingKey: ROUTING_KEY, url: receiver.url('/v2/enqueue') });
    await subscribe(slack.id);
    await subscribe(pager.id, { alarmIds: ['port_limit'] });
    const first = await raise('port_limit', 'critical');
    await t.core.alarms.acknowledge({ alarmId: first.alarmId, alarmSrc: first.rawSrc, user: 'admin' });
    await t.core.alarms.clearByUser({ alarmId: first.alarmId, alarmSrc: first.rawSrc, user: 'admin' });
    await raise('port_limit', 'critical');
    await raise('ets_limit', 'critical');
    await deliver();
    const slackBodies = receiver.requests
      .filter((r) => r.path.includes(SLACK_TOKEN))
      .map((r) => JSON.parse(r.body) as { text: string; blocks: unknown[] });
    expect(slackBodies).toHaveLength(5);
    expect(slackBodies.map((b) => b.text)).toContainEqual(
      expect.stringMatching(
        /^:rotating_light: \[CRITICAL\] port_limit raised on notify_1@127\.0\.0\.1: port_limit is high$/,
      ),
    );
    const events = receiver.requests
      .filter((r) => r.path === '/v2/enqueue')
      .map(
        (r) =>
          JSON.parse(r.body) as {
            routing_key: string;
            event_action: string;
            dedup_key: string;
            payload?: Record<string, unknown>;
          },
      )
      .sort((a, b) => a.dedup_key.localeCompare(b.dedup_key) || a.event_action.localeCompare(b.event_action));
    expect(events).toHaveLength(4);
    expect(events.every((e) => e.routing_key === ROUTING_KEY)).toBe(true);
    const byKey = new Map<string, string[]>();
    for (const e of events) byKey.set(e.dedup_key, [...(byKey.get(e.dedup_key) ?? []), e.event_action]);
    expect([...byKey.values()].map((actions) => actions.sort())).toEqual(
      expect.arrayContaining([['acknowledge', 'resolve', 'trigger'], ['trigger']]),
    );
    const trigger = events.find((e) => e.event_action === 'trigger')!;
    expect(trigger.payload).toMatchObject({
      severity: 'critical',
      source: 'notify_1@127.0.0.1',
      component: 'port_limit',
    });
    expect(events.find((e) => e.event_action === 'resolve')?.payload).toBeUndefined();
  });

  it('retries a failing receiver with backoff, records each attempt, and gives up after the last', async () => {
    const hook = await channel({ type: 'webhook', url: receiver.url('/flaky'), secret: WEBHOOK_SECRET });
    await subscribe(hook.id);
    receiver.answer((_request, index) => ({ status: index === 0 ? 500 : 200 }));
    await raise('flaky_alarm');
    expect(await deliver()).toBe(1);
    const [pending] = await deliveries();
    expect(pending).toMatchObject({ status: 'pending', attemptCount: 1 });
    // Due again only after the first backoff (10 ms here).
    expect(pending!.nextAttemptAt).toBeGreaterThanOrEqual(pending!.attempts[0]!.startedAt + 10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await t.core.notifications.worker.runOnce()).toBe(1);
    const [delivered] = await deliveries(`?status=delivered&channelId=${hook.id}`);
    expect(delivered!.attempts.map((a) => [a.attempt, a.ok, a.statusCode])).toEqual([
      [1, false, 500],
      [2, true, 200],
    ]);
    expect(delivered!.attempts[0]!.error).toBe('the receiver answered HTTP 500');

    receiver.answer(() => ({ status: 503 }));
    await raise('broken_alarm');
    await deliver();
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await t.core.notifications.worker.runOnce();
    }
    const [failed] = await deliveries('?status=failed');
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 3, alarm: { alarmId: 'broken_alarm' } });
    expect(failed!.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503]);
    // Exponential backoff: 10 ms, then 20 ms (at least) between the attempts' starts.
    const [a1, a2, a3] = failed!.attempts.map((a) => a.startedAt);
    expect(a2! - a1!).toBeGreaterThanOrEqual(10);
    expect(a3! - a2!).toBeGreaterThanOrEqual(20);
  });

  it('does not let a slow receiver hold up alarm handling', async () => {
    const hook = await channel({ type: 'webhook', url: receiver.url('/slow'), secret: WEBHOOK_SECRET });
    await subscribe(hook.id);
    receiver.answer(() => ({ status: 200, delayMs: 2_000 }));
    t.core.notifications.worker.start();
    try {
      const started = performance.now();
      const alarm = await raise('slow_alarm');
      await t.core.alarms.acknowledge({ alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc, user: 'admin' });
      await t.core.alarms.clearByUser({ alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc, user: 'admin' });
      expect(performance.now() - started).toBeLessThan(250);
      await t.core.notifications.enqueuer.idle();
      let listed: DeliveryReply[] = [];
      for (let i = 0; i < 40 && listed.length < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        listed = (await deliveries()).filter((d) => d.attempts.length > 0);
      }
      expect(listed).toHaveLength(3);
      for (const delivery of listed) {
        expect(delivery.attempts[0]).toMatchObject({ ok: false, statusCode: null, error: 'no reply within 300 ms' });
        expect(delivery.attempts[0]!.durationMs).toBeGreaterThanOrEqual(250);
        expect(delivery.attempts[0]!.durationMs).toBeLessThan(1_500);
      }
    } finally {
      await t.core.notifications.worker.stop();
    }
  });

  it('checks the policy again at delivery, and keeps secrets out of the records', async () => {
    // Stored behind the API's back (as by an older release): the delivery still refuses it.
    const refused = await t.core.notifications.channels.create(
      'sneaky',
      { type: 'slack' },
      { url: `http://localhost:${receiver.port}/services/${SLACK_TOKEN}` },
    );
    await subscribe(refused.id);
    await raise('sneaky_alarm');
    await deliver();
    const [record] = await deliveries();
    expect(record!.attempts[0]).toMatchObject({ ok: false, statusCode: null });
    expect(record!.attempts[0]!.error).toMatch(/^refused by the notification address policy \(private\): localhost/);
    expect(JSON.stringify(record)).not.toContain(SLACK_TOKEN);
    expect(receiver.requests).toHaveLength(0);
  });

  it('notifies subscribers only of alarms they may see and asked for', async () => {
    await t.core.users.addUser('carol', 'carolpass1', 'user');
    await t.core.users.setTags('carol', ['db']);
    const hook = await channel({ type: 'webhook', url: receiver.url('/filtered'), secret: WEBHOOK_SECRET });
    const other = await channel({ type: 'webhook', url: receiver.url('/carol'), secret: WEBHOOK_SECRET });
    const family = (await t.core.topologyStore.findNode(nodeId))!.familyId;
    await subscribe(hook.id, { tags: ['op'], nodeFamilyId: family, alarmIds: ['wanted'] });
    // Carol sees only `db` alarms: her subscription stays silent for the `dev`/`op` ones.
    await subscribe(other.id, { username: 'carol' });
    await raise('wanted');
    await raise('unwanted');
    await t.core.alarms.raise({ alarmId: 'wanted', nodeId, custom: 'other', tags: ['dev'] });
    await t.core.alarms.raise({ alarmId: 'db_alarm', nodeId, tags: ['db'] });
    await deliver();
    const received = receiver.requests.map((r) => [
      r.path,
      (JSON.parse(r.body) as { alarm: { alarmId: string } }).alarm.alarmId,
    ]);
    expect(received.sort()).toEqual([
      ['/carol', 'db_alarm'],
      ['/filtered', 'wanted'],
    ]);
  });
});
