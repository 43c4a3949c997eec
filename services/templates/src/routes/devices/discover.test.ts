import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate } from '@triad/device-templates';
import {
  describeWithPrograms,
  SNMPD,
  SNMPD_INSTALL,
  startSnmpd,
  type SnmpdServer,
} from '@triad/device-drivers/testing';
import { createDevicesCommand } from '../../cli/devices-command.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

interface DiscoverReply {
  results: {
    address: string;
    sysDescr?: string;
    error?: { code: string };
    templates: { templateId: string }[];
    device?: {
      id: string;
      variables: Record<string, string>;
      drivers: Record<string, Record<string, Record<string, unknown>>>;
    };
    existing?: boolean;
  }[];
}

describeWithPrograms('POST /devices/discover against a real snmpd', [SNMPD], SNMPD_INSTALL, () => {
  let snmpd: SnmpdServer;
  let app: FastifyInstance;
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
  beforeAll(async () => {
    snmpd = await startSnmpd();
    app = await buildTestApp(database);
    const template = createStarterTemplate('snmp', { templateId: 'Linux Agent' });
    // snmpd answers sysDescr with the kernel's uname line.
    template['rangerFilter'] = { description: '^Linux ' };
    const stored = await app.inject({ method: 'POST', url: '/templates', payload: template });
    expect(stored.statusCode).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await snmpd?.close();
    await database.close();
  });
  const snmp = () => ({
    basicConfig: { port: snmpd.port, timeout: 500, retries: 0 },
    snmpCommunities: { readCommunity: snmpd.community },
  });

  it('reads sysDescr, proposes the matching template, and names an address that does not answer', async () => {
    const reply = await app.inject({
      method: 'POST',
      url: '/devices/discover',
      payload: { targets: '127.0.0.1, 127.0.0.2', snmp: snmp() },
    });
    expect(reply.statusCode).toBe(200);
    const [agent, silent] = reply.json<DiscoverReply>().results;
    expect(agent?.sysDescr).toMatch(/^Linux /);
    expect(agent?.templates.map((t) => t.templateId)).toEqual(['Linux Agent']);
    expect(agent?.device).toBeUndefined();
    expect(silent?.address).toBe('127.0.0.2');
    expect(['timeout', 'refused']).toContain(silent?.error?.code);
    expect((await app.inject('/devices')).json<{ devices: unknown[] }>().devices).toEqual([]);
  });

  it('adds a device once with ICMP_IPAddress filled and its community sealed, which then reads values', async () => {
    const add = () =>
      app.inject({
        method: 'POST',
        url: '/devices/discover',
        payload: { targets: '127.0.0.1/32', snmp: snmp(), add: true },
      });
    const [first] = (await add()).json<DiscoverReply>().results;
    const device = first!.device!;
    expect(device.variables).toEqual({ ICMP_IPAddress: '127.0.0.1' });
    expect(device.drivers['svc-ds-drv-snmp']?.['snmpCommunities']?.['readCommunity']).toBe('hidden');
    const stored = await database.db.selectFrom('devices').select('drivers_json').executeTakeFirstOrThrow();
    expect(stored.drivers_json).not.toContain(`"${snmpd.community}"`);
    expect(stored.drivers_json).toContain('enc:v1:');
    await expect
      .poll(
        async () =>
          (await app.inject(`/devices/${device.id}/values`))
            .json<{ values: { datapointId: string; value: unknown }[] }>()
            .values.find((v) => v.datapointId === 'sysDescr')?.value,
        { timeout: 5_000 },
      )
      .toMatch(/^Linux /);
    const [again] = (await add()).json<DiscoverReply>().results;
    expect(again).toMatchObject({ existing: true, device: { id: device.id } });
  });

  it('refuses a target list that is not addresses, probing nothing', async () => {
    const reply = await app.inject({ method: 'POST', url: '/devices/discover', payload: { targets: '10.0.0.0/33' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.json<{ detail: string }>().detail).toContain('prefix');
  });

  it('triad devices discover prints each address with its sysDescr and the matching template', async () => {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    let out = '';
    const io = {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: () => true },
      cwd: process.cwd(),
      exitCode: 0,
      readStdin: () => Promise.resolve(new Uint8Array()),
    };
    const command = createDevicesCommand(io, { env: {} });
    command.exitOverride();
    await command.parseAsync(['discover', '--snmp', '127.0.0.1', '--port', String(snmpd.port), '--url', url], {
      from: 'user',
    });
    expect(io.exitCode).toBe(0);
    expect(out).toMatch(/^127\.0\.0\.1 {2}"Linux .*" {2}-> Linux Agent@1\.0\.0/);
  });
});
