import { createCipheriv } from 'node:crypto';
import { createStarterTemplate, type DeviceTemplate } from '@triad/device-templates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverRegistry } from '../../driver-registry.js';
import { prepareDevice } from '../../prepare-device.js';
import { collectDevice } from '../../test-support/collect-device.js';
import { describeWithPrograms } from '../../test-support/real-server.js';
import {
  EXTEND_LINES_TABLE,
  SNMPD,
  SNMPD_INSTALL,
  SNMPD_V3,
  SNMPD_V3_USERS,
  startSnmpd,
  TESTVALUE_OID,
  type SnmpdServer,
} from '../../test-support/snmpd-server.js';
import { alarmWhen, mapSet, snmpPoint, snmpTemplate, tableSet } from '../../test-support/snmp-templates.js';
import { snmpDriver } from './snmp-driver.js';

const registry = new DriverRegistry([snmpDriver]);
/** How long the agent keeps an extend's output (its -cacheTime) plus a margin. */
const EXTEND_CACHE_MS = 1100;

function collect(template: DeviceTemplate, settings: Record<string, unknown>) {
  const binding = {
    variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'public' },
    drivers: { 'svc-ds-drv-snmp': settings },
  };
  const device = collectDevice(template, binding, registry);
  return { ...device, value: (id: string) => device.last(id), last: () => device.states.at(-1) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithPrograms('SNMP driver against a real snmpd', [SNMPD], SNMPD_INSTALL, () => {
  let agent: SnmpdServer;
  const fast = (version = 2) => ({ basicConfig: { port: agent.port, version, timeout: 500, retries: 0 } });
  const v3 = (security: Record<string, unknown> = {}) => ({
    basicConfig: { port: agent.port, version: 3, timeout: 500, retries: 0 },
    snmpV3Security: { ...SNMPD_V3, ...security },
  });

  beforeAll(async () => {
    agent = await startSnmpd();
  });
  afterAll(async () => {
    await agent.close();
  });

  it('reads sysDescr and sysUpTime over v2c with the starter template', async () => {
    const template = createStarterTemplate('snmp') as unknown as DeviceTemplate;
    const run = collect(template, fast());
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.last()).toEqual({ state: 'up', error: null });
    expect(run.value('sysDescr')).toMatchObject({ quality: 'good', value: expect.stringMatching(/\S/) as unknown });
    expect(run.value('sysUpTime')?.value).toEqual(expect.any(Number));
    expect(run.events.filter((e) => e.type === 'alarm-raised')).toEqual([]);
  });

  it('reads over v3 authPriv (SHA, AES)', async () => {
    const template = createStarterTemplate('snmp') as unknown as DeviceTemplate;
    const run = collect(template, v3());
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.last()?.state).toBe('up');
    expect(run.value('sysDescr')?.quality).toBe('good');
    expect(typeof run.value('sysUpTime')?.value).toBe('number');
  });

  it('reads over v3 noAuthNoPriv, authNoPriv (SHA-256) and authPriv (SHA-512, AES-256)', async () => {
    const template = createStarterTemplate('snmp') as unknown as DeviceTemplate;
    const runs = Object.values(SNMPD_V3_USERS).map((user) => collect(template, v3(user)));
    await Promise.all(runs.map((run) => run.collector.pollOnce()));
    await Promise.all(runs.map((run) => run.collector.stop()));
    expect(runs.map((run) => run.last()?.error ?? null)).toEqual([null, null, null]);
    expect(runs.map((run) => typeof run.value('sysUpTime')?.value)).toEqual(['number', 'number', 'number']);
  });

  it('names a wrong v3 authentication password and an unknown v3 user as authentication errors', async () => {
    const template = createStarterTemplate('snmp') as unknown as DeviceTemplate;
    const wrong = collect(template, v3({ authPassword: 'not-the-password' }));
    const unknown = collect(template, v3({ usmUser: 'nobody' }));
    await Promise.all([wrong.collector.pollOnce(), unknown.collector.pollOnce()]);
    await Promise.all([wrong.collector.stop(), unknown.collector.stop()]);
    expect(wrong.last()?.state).toBe('down');
    expect(wrong.last()?.error).toMatchObject({ code: 'authentication', originType: 'svc-ds-drv-snmp' });
    expect(wrong.last()?.error?.message).toContain('wrong authentication password or algorithm (SHA)');
    expect(wrong.last()?.error?.message).not.toContain('not-the-password');
    expect(unknown.last()?.error?.code).toBe('authentication');
    expect(unknown.last()?.error?.message).toContain('does not know SNMPv3 user "nobody"');
    // The starter's "sysUpTime has no value" alarm fires while the device cannot be read.
    expect(wrong.events.some((e) => e.type === 'alarm-raised' && e.datapointId === 'sysUpTime')).toBe(true);
  });

  it('reports a wrong v2c community as a timeout that names the community', async () => {
    const template = createStarterTemplate('snmp') as unknown as DeviceTemplate;
    const run = collect(template, { ...fast(), snmpCommunities: { readCommunity: 'not-this-one' } });
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.last()?.error).toMatchObject({ code: 'timeout' });
    expect(run.last()?.error?.message).toMatch(/no answer after 1 attempt of 500 ms.*read community/);
    expect(run.last()?.error?.message).not.toContain('not-this-one');
  });

  it('maps SNMP types to values and gives an object the agent lacks quality bad, alone (v1, v2c, v3)', async () => {
    const template = snmpTemplate([
      mapSet('system', [
        snmpPoint('name', '1.3.6.1.2.1.1.5.0', 'STRING', {}, 'OCTET_STRING'),
        snmpPoint('absent', '1.3.6.1.2.1.1.99.0'),
        snmpPoint('objectId', '1.3.6.1.2.1.1.2.0', 'STRING', {}, 'OBJECT_IDENTIFIER'),
        snmpPoint('upTimeText', '1.3.6.1.2.1.1.3.0', 'STRING', {}, 'TimeTicks'),
        snmpPoint('loAddress', '1.3.6.1.2.1.4.20.1.1.127.0.0.1', 'STRING', {}, 'IpAddress'),
        snmpPoint('loInOctets64', '1.3.6.1.2.1.31.1.1.1.6.1', 'LONG', {}, 'Counter64'),
        snmpPoint('loOperUp', '1.3.6.1.2.1.2.2.1.8.1', 'BOOLEAN', {}, 'TruthValue'),
      ]),
    ]);
    for (const settings of [fast(1), fast(), v3()]) {
      const run = collect(template, settings);
      await run.collector.pollOnce();
      await run.collector.stop();
      expect(run.last()?.state).toBe('up');
      expect(run.value('name')).toMatchObject({ quality: 'good', value: expect.any(String) as unknown });
      expect(run.value('absent')).toMatchObject({ value: null, quality: 'bad' });
      expect(run.value('objectId')?.value).toBe('1.3.6.1.4.1.8072.3.2.10');
      expect(run.value('upTimeText')?.value).toMatch(/^\d+$/);
      expect(run.value('loAddress')?.value).toBe('127.0.0.1');
      // Counter64 does not exist in SNMPv1: there the object reads as bad.
      if (settings.basicConfig.version === 1) expect(run.value('loInOctets64')?.quality).toBe('bad');
      else expect(run.value('loInOctets64')?.value).toEqual(expect.any(Number));
      expect(run.value('loOperUp')?.value).toBe(true);
    }
  });

  it('walks ifTable into rows keyed by ifIndex, over v2c (GETBULK) and v1 (GETNEXT)', async () => {
    const template = snmpTemplate([
      tableSet(
        'interfaces',
        'tableDynamic',
        '1.3.6.1.2.1.2.2',
        ['ifIndex'],
        [
          snmpPoint('ifIndex', '1.3.6.1.2.1.2.2.1.1', 'LONG'),
          snmpPoint('ifDescr', '2', 'STRING', {}, 'OCTET_STRING'),
          snmpPoint('ifInOctets', '10', 'LONG', {}, 'Counter32'),
          snmpPoint('ifPhysAddress', '6', 'STRING', {}, 'PhysAddress'),
        ],
      ),
    ]);
    const rows: unknown[] = [];
    for (const version of [2, 1]) {
      const run = collect(template, fast(version));
      await run.collector.pollOnce();
      await run.collector.stop();
      expect(run.last()?.state).toBe('up');
      const [set] = run.collector.evaluator.snapshot();
      const lo = set?.rows.find((row) => row.values['ifDescr']?.value === 'lo');
      expect(lo?.tableIndex).toBe(1);
      expect(lo?.values['ifIndex']?.value).toBe(1);
      expect(lo?.values['ifInOctets']?.value).toEqual(expect.any(Number));
      expect(lo?.values['ifPhysAddress']?.value).toBe('');
      rows.push(set?.rows.map((row) => row.tableIndex));
    }
    expect(rows[0]).toEqual(rows[1]);
  });

  it('walks hrSWRunTable, hundreds of rows, keyed by hrSWRunIndex (the process id)', async () => {
    const template = snmpTemplate([
      tableSet(
        'processes',
        'tableDynamic',
        '1.3.6.1.2.1.25.4.2',
        ['pid'],
        [
          snmpPoint('pid', '1', 'LONG'),
          snmpPoint('name', '2', 'STRING', {}, 'InternationalDisplayString'),
          snmpPoint('status', '7', 'LONG'),
        ],
      ),
    ]);
    const run = collect(template, fast());
    await run.collector.pollOnce();
    await run.collector.stop();
    const rows = run.collector.evaluator.snapshot()[0]?.rows ?? [];
    expect(rows.length).toBeGreaterThan(10);
    const snmpd = rows.find((row) => row.tableIndex === agent.pid());
    expect(snmpd?.values['name']?.value).toBe('snmpd');
    expect(snmpd?.values['pid']?.value).toBe(agent.pid());
  });

  it('keys rows by OID suffix when the index column is not readable; rows come and go', async () => {
    // nsExtendLineIndex (column 1) is not-accessible: the row key comes from the instance suffix.
    const template = snmpTemplate([
      tableSet(
        'lines',
        'tableDynamic',
        EXTEND_LINES_TABLE,
        ['lineKey'],
        [snmpPoint('lineKey', '1', 'STRING'), snmpPoint('line', '2', 'STRING', {}, 'DisplayString')],
      ),
    ]);
    const run = collect(template, fast());
    const lineRows = () =>
      (run.collector.evaluator.snapshot()[0]?.rows ?? [])
        .map((row) => ({ key: row.tableIndex, line: row.values['line']?.value }))
        .filter((row) => typeof row.key === 'string' && row.key.startsWith('5.108.105.110.101.115.'));
    await agent.setLines(['alpha', 'beta', 'gamma']);
    await sleep(EXTEND_CACHE_MS);
    await run.collector.pollOnce();
    expect(lineRows()).toEqual([
      { key: '5.108.105.110.101.115.1', line: 'alpha' },
      { key: '5.108.105.110.101.115.2', line: 'beta' },
      { key: '5.108.105.110.101.115.3', line: 'gamma' },
    ]);
    await agent.setLines(['delta']);
    await sleep(EXTEND_CACHE_MS);
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(lineRows()).toEqual([{ key: '5.108.105.110.101.115.1', line: 'delta' }]);
  });

  it('raises an alarm when the extend value crosses the threshold and clears it when it returns', async () => {
    const template = snmpTemplate([
      mapSet('probe', [
        snmpPoint(
          'testValue',
          TESTVALUE_OID,
          'DOUBLE',
          { alertConfig: { evaluations: [alarmWhen(601, 'datapoint.value > 50', 'test value too high')] } },
          'DisplayString',
        ),
      ]),
    ]);
    const run = collect(template, v3());
    const alarms = () => run.events.filter((e) => e.type === 'alarm-raised' || e.type === 'alarm-cleared');
    await agent.setTestValue('10');
    await sleep(EXTEND_CACHE_MS);
    await run.collector.pollOnce();
    expect(run.value('testValue')?.value).toBe(10);
    expect(alarms()).toEqual([]);
    await agent.setTestValue('90');
    await sleep(EXTEND_CACHE_MS);
    await run.collector.pollOnce();
    expect(alarms().map((e) => [e.type, 'text' in e ? e.text : '', 'value' in e ? e.value : ''])).toEqual([
      ['alarm-raised', 'test value too high', 90],
    ]);
    await agent.setTestValue('20');
    await sleep(EXTEND_CACHE_MS);
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(alarms().map((e) => e.type)).toEqual(['alarm-raised', 'alarm-cleared']);
  });

  it('turns the device down when snmpd is killed and up again when it restarts (v2c and v3)', async () => {
    const template = createStarterTemplate('snmp') as unknown as DeviceTemplate;
    // DeviceCollector.pollOnce makes new drivers each time and keeps the failed ones, so the
    // way back up is seen by a second collector; one driver instance of each version is also
    // read across the restart (a v3 session must rediscover the restarted engine).
    const settings = [fast(), v3()];
    const runs = settings.map((s) => collect(template, s));
    const drivers = settings.map((s) => {
      const prepared = prepareDevice(
        template,
        {
          variables: { ICMP_IPAddress: '127.0.0.1', SNMP_READ_COMMUNITY: 'public' },
          drivers: { 'svc-ds-drv-snmp': s },
        },
        registry,
      );
      const driver = snmpDriver.create({ config: prepared.drivers[0]!.config, origin: '127.0.0.1' });
      if (driver.kind !== 'polling') throw new Error('the SNMP driver polls');
      return driver;
    });
    const request = {
      points: [
        {
          datapointSetId: 'system',
          datapointId: 'sysUpTime',
          originAddress: '1.3.6.1.2.1.1.3.0',
          originDataType: 'TimeTicks',
          dataType: 'LONG' as const,
          receiveMode: 'polling' as const,
          pollingGroup: '5s' as const,
        },
      ],
      tables: [],
    };
    const readAll = () =>
      Promise.allSettled(drivers.map((driver) => driver.read(request, new AbortController().signal)));
    const after = settings.map((s) => collect(template, s));
    try {
      await Promise.all(runs.map((run) => run.collector.pollOnce()));
      expect(runs.map((run) => run.last()?.state)).toEqual(['up', 'up']);
      expect((await readAll()).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      await agent.kill();
      await Promise.all(runs.map((run) => run.collector.pollOnce()));
      expect(runs.map((run) => run.last()?.state)).toEqual(['down', 'down']);
      expect(runs.map((run) => run.last()?.error?.code)).toEqual(['timeout', 'timeout']);
      expect(runs[0]?.value('sysUpTime')).toMatchObject({ value: null, quality: 'bad' });
      expect((await readAll()).map((r) => r.status)).toEqual(['rejected', 'rejected']);
      await agent.start();
      await Promise.all(after.map((run) => run.collector.pollOnce()));
      expect(after.map((run) => run.last()?.state)).toEqual(['up', 'up']);
      expect(after[1]?.value('sysUpTime')?.quality).toBe('good');
      const again = await readAll();
      expect(again.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    } finally {
      await Promise.all([...runs, ...after].map((run) => run.collector.stop()));
      await Promise.all(drivers.map((driver) => driver.close()));
    }
  });
});

describe('snmpDriver configuration', () => {
  it('names what is wrong without connecting', () => {
    const check = (config: Record<string, unknown>) =>
      snmpDriver.check({ basicConfig: { address: '192.0.2.1', ...config } });
    expect(check({})).toEqual([]);
    expect(check({ version: 4 })).toEqual(['basicConfig.version must be 1, 2 (for v2c) or 3; it is 4']);
    expect(check({ version: 3 })).toEqual(['snmpV3Security.usmUser is required for SNMP version 3']);
    expect(check({ timeout: 'soon' })).toEqual([
      'basicConfig.timeout must be an integer from 10 to 120000; it is "soon"',
    ]);
    expect(
      snmpDriver.check({
        basicConfig: { address: '192.0.2.1', version: '3' },
        snmpV3Security: { usmUser: 'u', authAlgorithm: 'SHA-256', authPassword: 'short' },
      }),
    ).toEqual(['snmpV3Security.authPassword must have at least 8 characters for authNoPriv (RFC 3414)']);
    expect(
      snmpDriver.check({
        basicConfig: { address: '192.0.2.1', version: 3 },
        snmpV3Security: { usmUser: 'u', authAlgorithm: 'SHA3', authPassword: 'long enough' },
      })[0],
    ).toContain('snmpV3Security.authAlgorithm must be one of MD5, SHA');
  });

  it('refuses DES privacy where this Node.js cannot run DES (OpenSSL 3 without its legacy provider)', () => {
    let des = true;
    try {
      createCipheriv('des-cbc', Buffer.alloc(8), Buffer.alloc(8));
    } catch {
      des = false;
    }
    const problems = snmpDriver.check({
      basicConfig: { address: '192.0.2.1', version: 3 },
      snmpV3Security: {
        usmUser: 'u',
        authPassword: 'long enough',
        privacyAlgorithm: 'DES',
        privacyPassword: 'long enough',
      },
    });
    if (des) expect(problems).toEqual([]);
    else expect(problems[0]).toContain('DES is not available here');
  });

  it('lists the secrets', () => {
    expect(snmpDriver.secretKeys).toEqual([
      'snmpCommunities.readCommunity',
      'snmpCommunities.writeCommunity',
      'snmpV3Security.authPassword',
      'snmpV3Security.privacyPassword',
    ]);
  });
});
