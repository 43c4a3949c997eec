import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate } from '@triad/device-templates';
import type { ProblemDocument } from '@triad/service-kit';
import { buildTestApp } from '../test-support/templates-test-app.js';
import { devicePolicy } from './device-policy.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';

type RefusalProblem = ProblemDocument & { rule: string; errors: { path: string }[] };

describe('the device address policy when a device is stored', () => {
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
  let app: FastifyInstance;
  beforeAll(async () => {
    // Nothing is collected: these tests are about what is stored.
    app = await buildTestApp(database, { collectDevices: false, devicesDeny: '10.66.0.0/16,plc.blocked.example' });
    for (const kind of ['mqtt', 'snmp'] as const) {
      const stored = await app.inject({ method: 'POST', url: '/templates', payload: createStarterTemplate(kind) });
      expect(stored.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
    await database.close();
  });

  const snmpDevice = (address: string, port = 161) =>
    app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'switch',
        templateId: 'example-snmp',
        templateVersion: '1.0.0',
        // The community variable is there for starters that take it from one.
        variables: { ICMP_IPAddress: address, SNMP_READ_COMMUNITY: 'public' },
        drivers: { 'svc-ds-drv-snmp': { basicConfig: { port } } },
      },
    });
  const mqttDevice = (brokerUrl: string) =>
    app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'sensor',
        templateId: 'example-mqtt',
        templateVersion: '1.0.0',
        drivers: { 'svc-ds-drv-mqtt': { brokerUrl } },
      },
    });

  it.each([
    ['169.254.169.254', 'metadata'],
    ['2852039166', 'metadata'],
    ['0xA9FEA9FE', 'metadata'],
    ['0251.0376.0251.0376', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['metadata.google.internal.', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.0.7', 'link-local'],
    ['fe80::1', 'link-local'],
    ['239.1.1.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['10.66.3.4', 'deny'],
    ['plc.blocked.example', 'deny'],
    // A name is checked by what it resolves to: localhost is 127.0.0.1 (and ::1).
    ['localhost', 'own-service'],
  ])('refuses an SNMP device at %s with a 422 naming the rule %s, storing nothing', async (address, rule) => {
    const refused = await snmpDevice(address, rule === 'own-service' ? 8080 : 161);
    expect(refused.statusCode).toBe(422);
    const problem = refused.json<RefusalProblem>();
    expect(problem.code).toBe('TPL_ERR_DEVICE_ADDRESS_REFUSED');
    expect(problem.rule).toBe(rule);
    expect(problem.errors[0]?.path).toBe('/drivers/svc-ds-drv-snmp/basicConfig/address');
    expect((await app.inject('/devices')).json<{ devices: unknown[] }>().devices).toEqual([]);
  });

  it.each([
    ['ws://127.0.0.1:8080/api/users/list_users', 'own-service'],
    ['ws://[::ffff:127.0.0.1]:8081/', 'own-service'],
    ['mqtt://[::1]:8082', 'own-service'],
    ['mqtt://2130706433:8082', 'own-service'],
    ['wss://[fd00:ec2::254]/', 'metadata'],
    ['mqtt://0xA9FEA9FE:1883', 'metadata'],
    ['ws://metadata.goog/computeMetadata/v1/', 'metadata'],
  ])('refuses an MQTT broker at %s (%s)', async (brokerUrl, rule) => {
    const refused = await mqttDevice(brokerUrl);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<RefusalProblem>()).toMatchObject({ code: 'TPL_ERR_DEVICE_ADDRESS_REFUSED', rule });
  });

  it('refuses the broker schemes it does not document, tcp:// among them', async () => {
    for (const brokerUrl of ['tcp://127.0.0.1:1883', 'ssl://127.0.0.1:8883', 'mqtt+unix:///run/x.sock']) {
      const refused = await mqttDevice(brokerUrl);
      expect(refused.statusCode).toBe(422);
      expect(refused.json<ProblemDocument>().detail).toContain('mqtt://, mqtts://, ws:// or wss://');
    }
    // Parsers disagree on a backslash before an '@': refused, so that no parser picks another host.
    const confusing = await mqttDevice('ws://broker.example\\@169.254.169.254/');
    expect(confusing.statusCode).toBe(422);
    expect(confusing.json<ProblemDocument>().detail).toContain('backslash');
  });

  it('accepts loopback and private addresses on other ports, and refuses a PATCH to a refused one', async () => {
    const created = await snmpDevice('127.0.0.1');
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    expect((await snmpDevice('10.1.2.3')).statusCode).toBe(201);
    expect((await mqttDevice('mqtt://192.168.10.5:1883')).statusCode).toBe(201);
    const moved = await app.inject({
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { variables: { ICMP_IPAddress: '169.254.169.254', SNMP_READ_COMMUNITY: 'public' } },
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json<RefusalProblem>().rule).toBe('metadata');
  });

  it('refuses a discovery whose targets include a refused address', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: '/devices/discover',
      payload: { targets: '10.0.0.1, 169.254.169.254' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<RefusalProblem>()).toMatchObject({ code: 'TPL_ERR_DEVICE_ADDRESS_REFUSED', rule: 'metadata' });
  });
});

describe('devicePolicy', () => {
  it("takes Triad's own ports from the setting, this service's listening port and the services started with it", () => {
    const server = { address: () => ({ address: '127.0.0.1', family: 'IPv4', port: 40_001 }) };

    const policy = devicePolicy(
      { devicesAllow: '', devicesDeny: '', devicesServicePorts: '9100', port: 0 },
      { server },
      () => [{ area: 'operator', title: 'Nodes', url: 'http://127.0.0.1:40002' }],
    );
    for (const port of [9100, 40_001, 40_002]) expect(policy.checkHost('127.0.0.1', port)?.rule).toBe('own-service');
    expect(policy.checkHost('127.0.0.1', 8080)).toBeUndefined();
    expect(policy.checkHost('10.0.0.1', 40_001)).toBeUndefined();
  });
});
