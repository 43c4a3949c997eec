import { randomBytes } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { createStarterTemplate } from '@triad/device-templates';
import { SecretCipher, SECRET_KEY_BYTES, type ProblemDocument } from '@triad/service-kit';
import { buildTestApp } from '../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { DEVICE_SECRET } from './device-secrets.js';

type SecretProblem = ProblemDocument & { fields: string[]; errors: { path: string }[] };
interface DeviceReply {
  id: string;
  variables: Record<string, string>;
}

/** A loopback UDP listener that keeps every datagram. */
async function udpListener(): Promise<{ socket: UdpSocket; port: number; received: () => string }> {
  const chunks: Buffer[] = [];
  const socket = createSocket('udp4', (message) => chunks.push(message));
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return { socket, port: socket.address().port, received: () => Buffer.concat(chunks).toString('latin1') };
}

describeEachDatabase<TemplatesDatabase>('device variables that fill a driver secret', (getDb) => {
  let app: FastifyInstance;
  // One key for every instance on the database, as in production.
  const cipher = new SecretCipher([randomBytes(SECRET_KEY_BYTES)], DEVICE_SECRET);
  beforeAll(async () => {
    app = await buildTestApp(getDb(), {}, { cipher });
    const stored = await app.inject({ method: 'POST', url: '/templates', payload: createStarterTemplate('snmp') });
    expect(stored.statusCode).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });
  const storedRow = async (id: string) =>
    JSON.stringify(await getDb().db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst());

  it('seals SNMP_READ_COMMUNITY, shows it "hidden", sends it to the device, and binds it to the target', async () => {
    const old = await udpListener();
    const attacker = await udpListener();
    try {
      const basicConfig = (port: number) => ({ basicConfig: { port, timeout: 200, retries: 0 } });
      const created = await app.inject({
        method: 'POST',
        url: '/devices',
        payload: {
          name: 'switch',
          templateId: 'example-snmp',
          templateVersion: '1.0.0',
          variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'plant-community-7' },
          drivers: { 'svc-ds-drv-snmp': basicConfig(old.port) },
        },
      });
      expect(created.statusCode).toBe(201);
      const device = created.json<DeviceReply>();
      expect(device.variables).toEqual({ ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'hidden' });
      expect(await storedRow(device.id)).not.toContain('plant-community-7');
      for (const url of ['/devices', `/devices/${device.id}`]) {
        const read = await app.inject({ method: 'GET', url });
        expect(read.statusCode).toBe(200);
        expect(read.body).not.toContain('plant-community-7');
        expect(read.body).toContain('"SNMP_READ_COMMUNITY":"hidden"');
      }
      // The driver gets the real community.
      await expect.poll(() => old.received(), { timeout: 10_000 }).toContain('plant-community-7');

      // A new address (by variable) or port (by setting) with the community kept: refused.
      const fields = ['variables.SNMP_READ_COMMUNITY'];
      for (const payload of [
        { variables: { ICMP_IPAddress: 'localhost', SNMP_READ_COMMUNITY: 'hidden' } },
        { drivers: { 'svc-ds-drv-snmp': basicConfig(attacker.port) } },
      ]) {
        const refused = await app.inject({ method: 'PATCH', url: `/devices/${device.id}`, payload });
        expect(refused.statusCode).toBe(422);
        const problem = refused.json<SecretProblem>();
        expect(problem.code).toBe('TPL_ERR_DEVICE_SECRET_REQUIRED');
        expect(problem.fields).toEqual(fields);
        expect(problem.errors.map((error) => error.path)).toEqual(['/variables/SNMP_READ_COMMUNITY']);
        expect(problem.detail).toContain('variables.SNMP_READ_COMMUNITY');
      }

      // The same target: "hidden" keeps the stored community.
      const renamed = await app.inject({
        method: 'PATCH',
        url: `/devices/${device.id}`,
        payload: { name: 'core switch', variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'hidden' } },
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json<DeviceReply>().variables['SNMP_READ_COMMUNITY']).toBe('hidden');
      expect(await storedRow(device.id)).not.toContain('plant-community-7');

      // A new target with the community given again: accepted, and only the new one goes there.
      const moved = await app.inject({
        method: 'PATCH',
        url: `/devices/${device.id}`,
        payload: {
          variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'moved-community-8' },
          drivers: { 'svc-ds-drv-snmp': basicConfig(attacker.port) },
        },
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.body).not.toContain('moved-community-8');
      expect(await storedRow(device.id)).not.toContain('moved-community-8');
      await expect.poll(() => attacker.received(), { timeout: 10_000 }).toContain('moved-community-8');
      expect(attacker.received()).not.toContain('plant-community-7');
      await app.inject({ method: 'DELETE', url: `/devices/${device.id}` });
    } finally {
      old.socket.close();
      attacker.socket.close();
    }
  });

  it('seals at start-up a community an earlier version stored in clear', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'legacy',
        templateId: 'example-snmp',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'x' },
        drivers: { 'svc-ds-drv-snmp': { basicConfig: { port: 9, timeout: 200, retries: 0 } } },
      },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<DeviceReply>();
    // As an earlier version stored it.
    await getDb()
      .db.updateTable('devices')
      .set({ variables_json: JSON.stringify({ ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'legacy-community' }) })
      .where('id', '=', id)
      .execute();
    expect(await storedRow(id)).toContain('legacy-community');
    const restarted = await buildTestApp(getDb(), {}, { cipher });
    try {
      expect(await storedRow(id)).not.toContain('legacy-community');
      const read = await restarted.inject({ method: 'GET', url: `/devices/${id}` });
      expect(read.json<DeviceReply>().variables).toEqual({
        ICMP_IPAddress: '127.0.0.1',
        SNMP_READ_COMMUNITY: 'hidden',
      });
    } finally {
      await restarted.close();
    }
    await app.inject({ method: 'DELETE', url: `/devices/${id}` });
  });

  it('leaves a variable that fills no secret in clear, even one that reads "hidden"', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'plain',
        templateId: 'example-snmp',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'x', SITE: 'hidden' },
        drivers: { 'svc-ds-drv-snmp': { basicConfig: { port: 9, timeout: 200, retries: 0 } } },
      },
    });
    expect(created.statusCode).toBe(201);
    const device = created.json<DeviceReply>();
    expect(device.variables).toEqual({ ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'hidden', SITE: 'hidden' });
    expect(await storedRow(device.id)).toContain('"SITE\\":\\"hidden\\"');
    await app.inject({ method: 'DELETE', url: `/devices/${device.id}` });
  });

  it('refuses "hidden" where no secret is stored to keep, rather than dropping or storing the word', async () => {
    const base = {
      name: 'copied',
      templateId: 'example-snmp',
      templateVersion: '1.0.0',
      drivers: { 'svc-ds-drv-snmp': { basicConfig: { port: 9, timeout: 200, retries: 0 } } },
    };
    // A reply copied into a new device: the community variable, or a driver secret, says "hidden".
    const copied = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: { ...base, variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'hidden' } },
    });
    expect(copied.statusCode).toBe(422);
    expect(copied.json<SecretProblem>().errors.map((e) => e.path)).toEqual(['/variables/SNMP_READ_COMMUNITY']);
    const hiddenDriver = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        ...base,
        variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'c' },
        drivers: { 'svc-ds-drv-snmp': { snmpV3Security: { authPassword: 'hidden' } } },
      },
    });
    expect(hiddenDriver.statusCode).toBe(422);
    expect(hiddenDriver.json<SecretProblem>().errors.map((e) => e.path)).toEqual([
      '/drivers/svc-ds-drv-snmp/snmpV3Security/authPassword',
    ]);
    // A change that says "hidden" for a secret the device never had.
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: { ...base, variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'c' } },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<DeviceReply>();
    const patched = await app.inject({
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { drivers: { 'svc-ds-drv-snmp': { snmpV3Security: { privacyPassword: 'hidden' } } } },
    });
    expect(patched.statusCode).toBe(422);
    expect(patched.json<SecretProblem>().detail).toContain('stores no secret there to keep');
    expect((await app.inject({ method: 'GET', url: `/devices/${id}` })).json<DeviceReply>().variables).toEqual({
      ICMP_IPAddress: '127.0.0.1',
      SNMP_READ_COMMUNITY: 'hidden',
    });
    await app.inject({ method: 'DELETE', url: `/devices/${id}` });
  });
});
