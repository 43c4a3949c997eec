import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate } from '@triad/device-templates';
import { startOpcuaServer, type OpcuaTestServer } from '@triad/device-drivers/testing';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

interface DiscoverReply {
  results: {
    address: string;
    endpointUrl?: string;
    description?: string;
    objects?: string[];
    error?: { code: string; message: string };
    templates: { templateId: string }[];
    device?: {
      id: string;
      variables: Record<string, string>;
      drivers: Record<string, Record<string, Record<string, unknown>>>;
    };
    existing?: boolean;
  }[];
}

describe('POST /devices/discover with protocol opcua against a real OPC UA server', () => {
  let server: OpcuaTestServer;
  let app: FastifyInstance;
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
  beforeAll(async () => {
    server = await startOpcuaServer();
    app = await buildTestApp(database);
    for (const template of [
      createStarterTemplate('opcua', { templateId: 'Any OPC UA' }),
      // Accepts any device too, but has no OPC UA driver: never proposed for an OPC UA server.
      createStarterTemplate('icmp', { templateId: 'Any IP' }),
    ]) {
      const stored = await app.inject({ method: 'POST', url: '/templates', payload: template });
      expect(stored.statusCode).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await server?.stop();
    await database.close();
  });
  const discover = (payload: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/devices/discover',
      payload: { targets: '127.0.0.1', protocol: 'opcua', ...payload },
    });

  it('reads BuildInfo, browses Objects, and proposes only templates with an OPC UA driver', async () => {
    const reply = await discover({ opcua: { port: server.port } });
    expect(reply.statusCode).toBe(200);
    const [result] = reply.json<DiscoverReply>().results;
    expect(result).toMatchObject({
      address: '127.0.0.1',
      endpointUrl: server.endpointUrl,
      description: 'Triad Triad test server 1.2.3',
      templates: [{ templateId: 'Any OPC UA' }],
    });
    expect(result?.objects).toEqual(expect.arrayContaining(['Server', '1:Boiler']));
    expect(result?.device).toBeUndefined();
  });

  it('names a port where no OPC UA server answers', async () => {
    const reply = await discover({ opcua: { port: 1, connectTimeout: 500 } });
    const [result] = reply.json<DiscoverReply>().results;
    expect(result?.templates).toEqual([]);
    expect(result?.error?.code).toBe('refused');
  });

  it('refuses OPC UA settings that cannot connect, probing nothing', async () => {
    const reply = await discover({ opcua: { securityMode: 'SignAndEncrypt', securityPolicy: 'None' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.json<{ detail: string }>().detail).toContain('set securityPolicy to Basic256Sha256');
  });

  it('adds a device once with OPCUA_EndpointUrl and its password sealed, then reads the server status', async () => {
    const opcua = {
      port: server.port,
      securityMode: 'SignAndEncrypt',
      identity: { type: 'username', userName: 'operator', password: 'secret' },
    };
    const reply = await discover({ opcua, add: true });
    expect(reply.json()).toMatchObject({ results: [{ device: {} }] });
    const [first] = reply.json<DiscoverReply>().results;
    const device = first!.device!;
    expect(device.variables).toEqual({ OPCUA_EndpointUrl: server.endpointUrl });
    expect(device.drivers['svc-ds-drv-opcua']?.['identity']).toEqual({
      type: 'username',
      userName: 'operator',
      password: 'hidden',
    });
    const stored = await database.db.selectFrom('devices').select('drivers_json').executeTakeFirstOrThrow();
    expect(stored.drivers_json).not.toContain('"secret"');
    expect(stored.drivers_json).toContain('enc:v1:');
    await expect
      .poll(
        async () =>
          (await app.inject(`/devices/${device.id}/values`))
            .json<{ values: { datapointId: string; value: unknown }[] }>()
            .values.find((v) => v.datapointId === 'productName')?.value,
        { timeout: 15_000 },
      )
      .toBe('Triad test server');
    const [again] = (await discover({ opcua, add: true })).json<DiscoverReply>().results;
    expect(again).toMatchObject({ existing: true, device: { id: device.id } });
  });
});
