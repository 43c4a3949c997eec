import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate } from '@triad/device-templates';
import type { ProblemDocument } from '@triad/service-kit';
import { TokenRepository } from '../../repositories/token-repository.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

interface DeviceReply {
  id: string;
  state: string;
  lastError: { code: string; message: string } | null;
}

/** A loopback port nobody listens on (a Modbus device there is refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * The first `state` event with an error on a device's stream, read over a real socket with
 * `token`; `trigger` runs once the stream is open (a restart of the device makes one).
 */
function firstStateError(base: string, id: string, token: string, trigger: () => Promise<unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}/devices/${id}/stream`,
      { headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          req.destroy();
          reject(new Error(`status ${res.statusCode}`));
          return;
        }
        let body = '';
        trigger().catch(reject);
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
          const data = /event: state\ndata: (.*"error".*)\n/.exec(body)?.[1];
          if (data !== undefined) {
            req.destroy();
            resolve(data);
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('device reads: a token by default, and driver errors only for writers', () => {
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
  let app: FastifyInstance;
  let base: string;
  const token: Record<'read' | 'write', string> = { read: '', write: '' };
  let id: string;
  const get = (url: string, as?: 'read' | 'write') =>
    app.inject({ url, headers: as === undefined ? {} : { authorization: `Bearer ${token[as]}` } });

  beforeAll(async () => {
    // The service's defaults: writes and device reads need a token; registry reads are open.
    app = await buildTestApp(database, { writeAccess: 'token', devicesReadAccess: 'token' });
    const tokens = new TokenRepository(database);
    token.read = (await tokens.create('reader', 'read')).token;
    token.write = (await tokens.create('writer', 'write')).token;
    const auth = { authorization: `Bearer ${token.write}` };
    const stored = await app.inject({
      method: 'POST',
      url: '/templates',
      headers: auth,
      payload: createStarterTemplate('modbus-tcp'),
    });
    expect(stored.statusCode).toBe(201);
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      headers: auth,
      payload: {
        name: 'meter',
        templateId: 'example-modbus-tcp',
        templateVersion: '1.0.0',
        variables: { DCP_IPAddress: '127.0.0.1' },
        drivers: { 'svc-ds-drv-modbus-tcp': { port: await closedPort(), timeout: 500 } },
      },
    });
    expect(created.statusCode).toBe(201);
    id = created.json<DeviceReply>().id;
    // The first poll finds the port closed.
    for (let tries = 0; tries < 200; tries++) {
      if ((await get(`/devices/${id}`, 'write')).json<DeviceReply>().lastError !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await database.close();
  });

  it('answers 401 to every device read without a token, the stream included; the registry stays open', async () => {
    for (const path of ['/devices', `/devices/${id}`, `/devices/${id}/values`, `/devices/${id}/alarms`]) {
      const refused = await get(path);
      expect(refused.statusCode).toBe(401);
      expect(refused.json<ProblemDocument>().code).toBe('TPL_ERR_UNAUTHORIZED');
      expect((await get(path, 'read')).statusCode).toBe(200);
    }
    expect((await get(`/devices/${id}/events`)).statusCode).toBe(401);
    expect((await get('/templates')).statusCode).toBe(200);
    const stream = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(`${base}/devices/${id}/stream`, (res) => {
        resolve(res.statusCode);
        req.destroy();
      });
      req.on('error', reject);
      req.end();
    });
    expect(stream).toBe(401);
  });

  it('shows a read-only caller that the device is down, never whether its port was refused or silent', async () => {
    expect((await get(`/devices/${id}`, 'write')).json<DeviceReply>().lastError?.code).toBe('refused');
    const asReader = (await get(`/devices/${id}`, 'read')).json<DeviceReply>();
    expect(asReader.state).toBe('down');
    expect(asReader.lastError?.code).toBe('unavailable');
    expect(asReader.lastError?.message).not.toMatch(/refused|127\.0\.0\.1|port/);
    const listed = (await get('/devices', 'read')).json<{ devices: DeviceReply[] }>().devices;
    expect(listed[0]?.lastError?.code).toBe('unavailable');
    const events = (await get(`/devices/${id}/events`, 'read')).json<{ events: { type: string; error?: unknown }[] }>();
    const state = events.events.find((event) => event.type === 'state' && event.error !== undefined);
    expect(state?.error).toMatchObject({ code: 'unavailable' });
    expect(JSON.stringify(events)).not.toContain('refused');
    const restart = () =>
      app.inject({
        method: 'PATCH',
        url: `/devices/${id}`,
        headers: { authorization: `Bearer ${token.write}` },
        payload: { name: 'meter 2' },
      });
    const streamed = await firstStateError(base, id, token.read, restart);
    expect(JSON.parse(streamed)).toMatchObject({ type: 'state', error: { code: 'unavailable' } });

    const asWriter = (await get(`/devices/${id}`, 'write')).json<DeviceReply>();
    expect(asWriter.lastError?.code).toBe('refused');
    expect(asWriter.lastError?.message).toContain('refused');
    expect(JSON.stringify((await get(`/devices/${id}/events`, 'write')).json())).toContain('refused');
  });
});
