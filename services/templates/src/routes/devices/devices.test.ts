import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { SecretCipher, SECRET_KEY_BYTES, type ProblemDocument } from '@triad/service-kit';
import { DEVICE_SECRET } from '../../devices/device-secrets.js';
import { pingTemplate } from '../../test-support/ping-template.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

interface DeviceReply {
  id: string;
  state: string;
  drivers: Record<string, Record<string, unknown>>;
  lastError: { code: string } | null;
}
interface AlarmsReply {
  alarms: { severity: number; text: string; datapointId: string; row: string | null }[];
}
interface EventsReply {
  events: { id: string; type: string; text?: string; reason?: string; state?: string }[];
}

describeEachDatabase<TemplatesDatabase>('devices', (getDb) => {
  const cipher = new SecretCipher([randomBytes(SECRET_KEY_BYTES)], DEVICE_SECRET);
  let app: FastifyInstance;
  const build = () => buildTestApp(getDb(), {}, { cipher });
  beforeAll(async () => {
    app = await build();
    for (const [version, threshold] of [
      ['1.0.0', 0],
      ['1.0.1', 1e9],
    ] as const) {
      const stored = await app.inject({ method: 'POST', url: '/templates', payload: pingTemplate(version, threshold) });
      expect(stored.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
  });
  const device = (extra: Record<string, unknown> = {}) => ({
    name: 'loopback',
    templateId: 'Ping Check',
    templateVersion: '1.0.0',
    variables: { ICMP_IPAddress: '127.0.0.1' },
    drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 500 } },
    ...extra,
  });

  it('refuses a device with an unfilled placeholder or an absent template version, storing nothing', async () => {
    const unfilled = await app.inject({ method: 'POST', url: '/devices', payload: device({ variables: {} }) });
    expect(unfilled.statusCode).toBe(422);
    const problem = unfilled.json<ProblemDocument & { errors: { path: string }[] }>();
    expect(problem.code).toBe('TPL_ERR_DEVICE_INVALID');
    expect(problem.errors.map((e) => e.path)).toEqual(['/variables/ICMP_IPAddress']);
    const absent = await app.inject({ method: 'POST', url: '/devices', payload: device({ templateVersion: '9.9.9' }) });
    expect(absent.statusCode).toBe(422);
    const wrongDriver = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: device({ drivers: { 'svc-ds-drv-icmp': { count: 0 } } }),
    });
    expect(wrongDriver.statusCode).toBe(422);
    expect(wrongDriver.json<{ errors: { message: string }[] }>().errors[0]?.message).toContain('count');
    const badName = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: device({ variables: { ICMP_IPAddress: '127.0.0.1', 'not a name': 'x' } }),
    });
    expect(badName.statusCode).toBe(422);
    expect(badName.json<{ errors: { path: string }[] }>().errors[0]?.path).toBe('/variables/not a name');
    const list = await app.inject({ method: 'GET', url: '/devices' });
    expect(list.json<{ devices: unknown[] }>().devices).toEqual([]);
  });

  it('collects a device, raises its alarm once, and keeps it across a restart without repeating it', async () => {
    const created = await app.inject({ method: 'POST', url: '/devices', payload: device() });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<DeviceReply>();
    expect(created.headers['location']).toBe(`/devices/${id}`);

    await expect
      .poll(async () => (await app.inject(`/devices/${id}/alarms`)).json<AlarmsReply>().alarms.length, {
        timeout: 5_000,
      })
      .toBe(1);
    const values = (await app.inject(`/devices/${id}/values`)).json<{
      values: { datapointId: string; value: unknown; quality: string; row: unknown }[];
    }>().values;
    const loss = values.find((v) => v.datapointId === 'packetLoss');
    expect(loss).toMatchObject({ value: 0, quality: 'good', row: null });
    await expect.poll(async () => (await app.inject(`/devices/${id}`)).json<DeviceReply>().state).toBe('up');

    // Restart the service on the same database: the alarm is still there, raised once.
    await app.close();
    app = await build();
    await expect
      .poll(async () => (await app.inject(`/devices/${id}/values`)).json<{ values: unknown[] }>().values.length, {
        timeout: 5_000,
      })
      .toBeGreaterThan(0);
    const alarms = (await app.inject(`/devices/${id}/alarms`)).json<AlarmsReply>().alarms;
    expect(alarms).toMatchObject([{ severity: 601, text: 'Slow echo', datapointId: 'roundTripTime', row: null }]);
    const events = (await app.inject(`/devices/${id}/events`)).json<EventsReply>().events;
    expect(events.filter((e) => e.type === 'alarm-raised')).toHaveLength(1);

    // Moving to the version whose condition never holds clears the stored alarm with a reason.
    const patched = await app.inject({ method: 'PATCH', url: `/devices/${id}`, payload: { templateVersion: '1.0.1' } });
    expect(patched.statusCode).toBe(200);
    await expect
      .poll(async () => (await app.inject(`/devices/${id}/alarms`)).json<AlarmsReply>().alarms.length, {
        timeout: 5_000,
      })
      .toBe(0);
    const after = (await app.inject(`/devices/${id}/events`)).json<EventsReply>().events;
    expect(after.find((e) => e.type === 'alarm-cleared')?.reason).toBe('not-raised-after-restart');

    const removed = await app.inject({ method: 'DELETE', url: `/devices/${id}` });
    expect(removed.statusCode).toBe(204);
    expect((await app.inject(`/devices/${id}`)).statusCode).toBe(404);
  });

  it('acknowledges a raised alarm once, with who and when, takes it back, and says so in the events', async () => {
    const { id } = (await app.inject({ method: 'POST', url: '/devices', payload: device() })).json<DeviceReply>();
    type Acked = AlarmsReply['alarms'][number] & { id: string; acknowledged: { by: string; at: string } | null };
    const listed = async () => (await app.inject(`/devices/${id}/alarms`)).json<{ alarms: Acked[] }>().alarms;
    await expect.poll(async () => (await listed()).length, { timeout: 5_000 }).toBe(1);
    const [alarm] = await listed();
    expect(alarm!.acknowledged).toBeNull();
    const post = (alarmId: string, what: string, target = id) =>
      app.inject({ method: 'POST', url: `/devices/${target}/alarms/${alarmId}/${what}` });

    const acked = await post(alarm!.id, 'acknowledge');
    expect(acked.statusCode).toBe(200);
    const first = acked.json<Acked>();
    expect(first).toMatchObject({ id: alarm!.id, text: 'Slow echo', acknowledged: { by: 'anonymous' } });
    expect(Date.parse(first.acknowledged!.at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await listed())[0]!.acknowledged).toEqual(first.acknowledged);
    // Twice: the first who and when stay, and no second event.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await post(alarm!.id, 'acknowledge')).json<Acked>().acknowledged).toEqual(first.acknowledged);
    const events = () => app.inject(`/devices/${id}/events`).then((r) => r.json<EventsReply>().events);
    expect((await events()).filter((e) => e.type === 'alarm-acknowledged')).toHaveLength(1);

    const undone = await post(alarm!.id, 'unacknowledge');
    expect(undone.statusCode).toBe(200);
    expect(undone.json<Acked>().acknowledged).toBeNull();
    expect((await events()).filter((e) => e.type === 'alarm-unacknowledged')).toHaveLength(1);

    // An alarm id no alarm has, one that is not an id, and a device that is not there.
    const missing = await post('A'.repeat(22), 'acknowledge');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<ProblemDocument>().code).toBe('TPL_ERR_DEVICE_ALARM_NOT_FOUND');
    expect((await post('not!an$id-of-22-chars', 'acknowledge')).statusCode).toBe(400);
    expect((await post('A'.repeat(400), 'acknowledge')).statusCode).toBe(400);
    expect((await post(alarm!.id, 'acknowledge', 'no-such-device')).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/devices/${id}` })).statusCode).toBe(204);
  });

  it('streams value changes as Server-Sent Events', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: device({ templateVersion: '1.0.1' }),
    });
    const { id } = created.json<DeviceReply>();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${address}/devices/${id}/stream`, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream');
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
          if (body.includes('event: value')) {
            req.destroy();
            resolve(body);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    const data = /event: value\ndata: (.*)\n/.exec(text)?.[1];
    expect(JSON.parse(data!)).toMatchObject({ datapointSetId: 'reachability' });
    await app.inject({ method: 'DELETE', url: `/devices/${id}` });
  });
});

describe('device writes with an admin token', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('answers 401 without a bearer token and with a wrong one, as problem+json', async () => {
    const { openDatabase } = await import('@triad/db');
    const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
    app = await buildTestApp(database, { adminToken: 'a-long-admin-token-0123' });
    const body = { name: 'x', templateId: 'none', templateVersion: '1.0.0' };
    const none = await app.inject({ method: 'POST', url: '/devices', payload: body });
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toContain('application/problem+json');
    expect(none.json<ProblemDocument>().code).toBe('TPL_ERR_UNAUTHORIZED');
    const wrong = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: body,
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('Bearer');
    const right = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: body,
      headers: { authorization: 'Bearer a-long-admin-token-0123' },
    });
    // Authorised: now the binding itself is checked (the template does not exist).
    expect(right.statusCode).toBe(422);
    expect((await app.inject('/devices')).statusCode).toBe(200);
    await database.close();
  });

  it('names who acknowledged by the token, and refuses a read token', async () => {
    const { openDatabase } = await import('@triad/db');
    const { TokenRepository } = await import('../../repositories/token-repository.js');
    const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
    app = await buildTestApp(database, { writeAccess: 'token', adminToken: 'a-long-admin-token-0123' });
    const admin = { authorization: 'Bearer a-long-admin-token-0123' };
    expect(
      (await app.inject({ method: 'POST', url: '/templates', payload: pingTemplate('1.0.0', 0), headers: admin }))
        .statusCode,
    ).toBe(201);
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      headers: admin,
      payload: {
        name: 'loopback',
        templateId: 'Ping Check',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1' },
        drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 500 } },
      },
    });
    const { id } = created.json<DeviceReply>();
    const alarms = async () =>
      (await app!.inject(`/devices/${id}/alarms`)).json<{ alarms: { id: string; acknowledged: unknown }[] }>().alarms;
    await expect.poll(async () => (await alarms()).length, { timeout: 5_000 }).toBe(1);
    const [alarm] = await alarms();
    const tokens = new TokenRepository(database);
    const reader = await tokens.create('reader', 'read');
    const writer = await tokens.create('writer', 'write');
    const ack = (token: string) =>
      app!.inject({
        method: 'POST',
        url: `/devices/${id}/alarms/${alarm!.id}/acknowledge`,
        headers: { authorization: `Bearer ${token}` },
      });
    const refused = await ack(reader.token);
    expect(refused.statusCode).toBe(403);
    expect((await alarms())[0]!.acknowledged).toBeNull();
    const done = await ack(writer.token);
    expect(done.statusCode).toBe(200);
    expect(done.json<{ acknowledged: { by: string } }>().acknowledged.by).toBe(`token ${writer.record.id}`);
    await app.inject({ method: 'DELETE', url: `/devices/${id}`, headers: admin });
    await database.close();
  });
});
