import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate } from '@triad/device-templates';
import type { ProblemDocument } from '@triad/service-kit';
import { buildTestApp } from '../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';

type SecretProblem = ProblemDocument & { fields: string[]; errors: { path: string }[] };

/** A loopback TCP listener that keeps every byte any client sends it. */
async function tcpListener(): Promise<{ server: Server; port: number; received: () => string }> {
  const chunks: Buffer[] = [];
  const server = createServer((socket) => socket.on('data', (chunk: Buffer) => chunks.push(chunk)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    received: () => Buffer.concat(chunks).toString('latin1'),
  };
}

/** A loopback UDP listener that keeps every datagram. */
async function udpListener(): Promise<{ socket: UdpSocket; port: number; received: () => string }> {
  const chunks: Buffer[] = [];
  const socket = createSocket('udp4', (message) => chunks.push(message));
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return { socket, port: socket.address().port, received: () => Buffer.concat(chunks).toString('latin1') };
}

describe('stored device secrets stay with their target', () => {
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(database);
    for (const kind of ['mqtt', 'snmp'] as const) {
      const stored = await app.inject({ method: 'POST', url: '/templates', payload: createStarterTemplate(kind) });
      expect(stored.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
    await database.close();
  });

  it('refuses a new broker URL with the password "hidden", and sends only a password given again', async () => {
    const old = await tcpListener();
    const attacker = await tcpListener();
    try {
      const created = await app.inject({
        method: 'POST',
        url: '/devices',
        payload: {
          name: 'sensor',
          templateId: 'example-mqtt',
          templateVersion: '1.0.0',
          drivers: {
            'svc-ds-drv-mqtt': {
              brokerUrl: `mqtt://127.0.0.1:${old.port}`,
              username: 'plant',
              password: 'old-secret-1',
            },
          },
        },
      });
      expect(created.statusCode).toBe(201);
      const { id } = created.json<{ id: string }>();
      const moveTo = (password: string, extra: Record<string, unknown> = {}) =>
        app.inject({
          method: 'PATCH',
          url: `/devices/${id}`,
          payload: {
            drivers: {
              'svc-ds-drv-mqtt': {
                brokerUrl: `mqtt://127.0.0.1:${attacker.port}`,
                username: 'plant',
                password,
                ...extra,
              },
            },
          },
        });
      for (const url of [`ws://127.0.0.1:${attacker.port}/mqtt`, `mqtt://localhost:${attacker.port}`]) {
        const refused = await app.inject({
          method: 'PATCH',
          url: `/devices/${id}`,
          payload: { drivers: { 'svc-ds-drv-mqtt': { brokerUrl: url, username: 'plant', password: 'hidden' } } },
        });
        expect(refused.statusCode).toBe(422);
        const problem = refused.json<SecretProblem>();
        expect(problem.code).toBe('TPL_ERR_DEVICE_SECRET_REQUIRED');
        expect(problem.fields).toEqual(['drivers.svc-ds-drv-mqtt.password']);
        expect(problem.errors[0]?.path).toBe('/drivers/svc-ds-drv-mqtt/password');
        expect(problem.detail).toContain('drivers.svc-ds-drv-mqtt.password');
      }
      // A TLS setting decides where the password goes too.
      const tls = await app.inject({
        method: 'PATCH',
        url: `/devices/${id}`,
        payload: {
          drivers: {
            'svc-ds-drv-mqtt': { brokerUrl: `mqtts://127.0.0.1:${old.port}`, username: 'plant', password: 'hidden' },
          },
        },
      });
      expect(tls.json<SecretProblem>().code).toBe('TPL_ERR_DEVICE_SECRET_REQUIRED');
      // Tuning only (the topics, the keepalive): the stored password stays.
      const tuned = await app.inject({
        method: 'PATCH',
        url: `/devices/${id}`,
        payload: {
          drivers: {
            'svc-ds-drv-mqtt': {
              brokerUrl: `mqtt://127.0.0.1:${old.port}`,
              username: 'plant',
              password: 'hidden',
              keepalive: 45,
            },
          },
        },
      });
      expect(tuned.statusCode).toBe(200);

      const moved = await moveTo('new-secret-2');
      expect(moved.statusCode).toBe(200);
      // The first bytes the new target ever received came after the accepted change.
      await expect.poll(() => attacker.received(), { timeout: 10_000 }).toContain('new-secret-2');
      expect(attacker.received()).not.toContain('old-secret-1');
      await app.inject({ method: 'DELETE', url: `/devices/${id}` });
    } finally {
      old.server.close();
      attacker.server.close();
    }
  });

  it('refuses a new SNMP address or port, by variable or setting, that would keep the community', async () => {
    const old = await udpListener();
    const attacker = await udpListener();
    try {
      const created = await app.inject({
        method: 'POST',
        url: '/devices',
        payload: {
          name: 'switch',
          templateId: 'example-snmp',
          templateVersion: '1.0.0',
          variables: { ICMP_IPAddress: '127.0.0.1' },
          drivers: {
            'svc-ds-drv-snmp': {
              basicConfig: { port: old.port, timeout: 200, retries: 0 },
              snmpCommunities: { readCommunity: 'plant-community' },
            },
          },
        },
      });
      expect(created.statusCode).toBe(201);
      const { id } = created.json<{ id: string }>();
      const fields = ['drivers.svc-ds-drv-snmp.snmpCommunities.readCommunity'];
      // Only the variable the address comes from changes; the stored settings would be kept.
      const byVariable = await app.inject({
        method: 'PATCH',
        url: `/devices/${id}`,
        payload: { variables: { ICMP_IPAddress: 'localhost' } },
      });
      expect(byVariable.statusCode).toBe(422);
      expect(byVariable.json<SecretProblem>().fields).toEqual(fields);
      for (const basicConfig of [
        { port: attacker.port, timeout: 200, retries: 0 },
        { port: old.port, timeout: 200, retries: 0, version: 1 },
      ]) {
        const refused = await app.inject({
          method: 'PATCH',
          url: `/devices/${id}`,
          payload: { drivers: { 'svc-ds-drv-snmp': { basicConfig, snmpCommunities: { readCommunity: 'hidden' } } } },
        });
        expect(refused.statusCode).toBe(422);
        expect(refused.json<SecretProblem>().fields).toEqual(fields);
      }
      const resent = await app.inject({
        method: 'PATCH',
        url: `/devices/${id}`,
        payload: {
          drivers: {
            'svc-ds-drv-snmp': {
              basicConfig: { port: attacker.port, timeout: 200, retries: 0 },
              snmpCommunities: { readCommunity: 'moved-community' },
            },
          },
        },
      });
      expect(resent.statusCode).toBe(200);
      await expect.poll(() => attacker.received(), { timeout: 10_000 }).toContain('moved-community');
      expect(attacker.received()).not.toContain('plant-community');
      await app.inject({ method: 'DELETE', url: `/devices/${id}` });
    } finally {
      old.socket.close();
      attacker.socket.close();
    }
  });
});
