import { afterAll, beforeAll, expect, it } from 'vitest';
import { DriverRegistry } from '../../driver-registry.js';
import { collectDevice } from '../../test-support/collect-device.js';
import { describeWithPrograms } from '../../test-support/real-server.js';
import { mapSet, snmpPoint, snmpTemplate, tableSet } from '../../test-support/snmp-templates.js';
import { freePort } from '../../test-support/local-server.js';
import {
  SNMPD,
  SNMPD_CONTEXT,
  SNMPD_INSTALL,
  SNMPD_V3,
  startSnmpd,
  type SnmpdServer,
} from '../../test-support/snmpd-server.js';
import { berMessageSize } from './tcp-datagram-socket.js';
import { createSnmpDriver } from './snmp-driver.js';

const registry = new DriverRegistry([createSnmpDriver()]);

function collect(template: Parameters<typeof collectDevice>[0], settings: Record<string, unknown>) {
  const binding = { variables: { ICMP_IPAddress: '127.0.0.1' }, drivers: { 'svc-ds-drv-snmp': settings } };
  return collectDevice(template, binding, registry);
}

describeWithPrograms('SNMP driver: MIB names, TCP and v3 contexts against a real snmpd', [SNMPD], SNMPD_INSTALL, () => {
  let agent: SnmpdServer;
  const fast = () => ({ basicConfig: { port: agent.port, version: 2, timeout: 500, retries: 0 } });

  beforeAll(async () => {
    agent = await startSnmpd();
  });
  afterAll(async () => {
    await agent.close();
  });

  it('reads scalars and tables addressed by MIB names as by their OIDs', async () => {
    const template = snmpTemplate([
      mapSet('system', [
        snmpPoint('upTime', 'SNMPv2-MIB::sysUpTime.0', 'LONG', {}, 'TimeTicks'),
        snmpPoint('name', 'sysName.0', 'STRING', {}, 'OCTET_STRING'),
        snmpPoint('nameByOid', '1.3.6.1.2.1.1.5.0', 'STRING', {}, 'OCTET_STRING'),
        snmpPoint('unknown', 'SNMPv2-MIB::sysNothing.0', 'STRING', {}, 'OCTET_STRING'),
      ]),
      tableSet(
        'interfaces',
        'tableDynamic',
        'IF-MIB::ifTable',
        ['ifIndex'],
        [
          snmpPoint('ifIndex', 'IF-MIB::ifIndex', 'LONG'),
          snmpPoint('ifDescr', 'ifDescr', 'STRING', {}, 'OCTET_STRING'),
        ],
      ),
    ]);
    const run = collect(template, fast());
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.states.at(-1)).toEqual({ state: 'up', error: null });
    expect(run.last('upTime')?.value).toEqual(expect.any(Number));
    expect(run.last('name')?.value).toBe(run.last('nameByOid')?.value);
    expect(run.last('name')?.quality).toBe('good');
    expect(run.last('unknown')).toMatchObject({ value: null, quality: 'bad' });
    expect(run.logs.join('\n')).toContain("'SNMPv2-MIB::sysNothing.0' is not an OID or a known MIB name");
    const rows = run.collector.evaluator.snapshot().find((set) => set.datapointSetId === 'interfaces')?.rows ?? [];
    expect(rows.find((row) => row.values['ifDescr']?.value === 'lo')?.tableIndex).toBe(1);
  });

  const system = () =>
    snmpTemplate([
      mapSet('system', [
        snmpPoint('upTime', '1.3.6.1.2.1.1.3.0', 'LONG', {}, 'TimeTicks'),
        snmpPoint('ifNumber', '1.3.6.1.2.1.2.1.0', 'LONG'),
      ]),
      tableSet(
        'interfaces',
        'tableDynamic',
        '1.3.6.1.2.1.2.2',
        ['ifIndex'],
        [snmpPoint('ifIndex', '1', 'LONG'), snmpPoint('ifDescr', '2', 'STRING')],
      ),
    ]);

  it('reads over TCP with v2c and v3, scalars and a walk', async () => {
    const tcp = { port: agent.tcpPort, transport: 'tcp', timeout: 1000, retries: 0 };
    for (const settings of [
      { basicConfig: { ...tcp, version: 2 } },
      { basicConfig: { ...tcp, version: 3 }, snmpV3Security: SNMPD_V3 },
    ]) {
      const run = collect(system(), settings);
      await run.collector.pollOnce();
      await run.collector.pollOnce();
      await run.collector.stop();
      expect(run.states.at(-1)).toEqual({ state: 'up', error: null });
      expect(run.last('upTime')?.value).toEqual(expect.any(Number));
      const rows = run.collector.evaluator.snapshot().find((set) => set.datapointSetId === 'interfaces')?.rows ?? [];
      expect(rows.some((row) => row.values['ifDescr']?.value === 'lo')).toBe(true);
    }
  });

  it('names a refused TCP connection as refused, not as a timeout', async () => {
    const closed = await freePort();
    const run = collect(system(), { basicConfig: { port: closed, transport: 'tcp', timeout: 500, retries: 0 } });
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.states.at(-1)?.error).toMatchObject({ code: 'refused' });
    expect(run.states.at(-1)?.error?.message).toContain('connection refused');
  });

  it('refuses a transport other than udp or tcp', () => {
    expect(registry.get('svc-ds-drv-snmp')?.check({ basicConfig: { address: 'h', transport: 'sctp' } })).toEqual([
      'basicConfig.transport must be udp or tcp; it is "sctp"',
    ]);
  });

  it('reads in the SNMPv3 context contextName: only what the agent serves there', async () => {
    const v3 = (contextName: string) => ({
      basicConfig: { port: agent.port, version: 3, timeout: 500, retries: 0 },
      snmpV3Security: { ...SNMPD_V3, contextName },
    });
    const inContext = collect(system(), v3(SNMPD_CONTEXT));
    const inDefault = collect(system(), v3(''));
    await Promise.all([inContext.collector.pollOnce(), inDefault.collector.pollOnce()]);
    await Promise.all([inContext.collector.stop(), inDefault.collector.stop()]);
    // The context holds the system group only: ifNumber is not there, though the default context has it.
    expect(inContext.last('upTime')?.quality).toBe('good');
    expect(inContext.last('ifNumber')).toMatchObject({ value: null, quality: 'bad' });
    expect(inDefault.last('ifNumber')?.value).toEqual(expect.any(Number));
  });

  it('frames BER messages by their length', () => {
    expect(berMessageSize(Buffer.from([0x30]))).toBeUndefined();
    expect(berMessageSize(Buffer.from([0x30, 0x03, 1, 2, 3]))).toBe(5);
    expect(berMessageSize(Buffer.from([0x30, 0x82, 0x01]))).toBeUndefined();
    expect(berMessageSize(Buffer.from([0x30, 0x82, 0x01, 0x00]))).toBe(260);
    expect(berMessageSize(Buffer.from([0x30, 0x80]))).toBe(-1);
  });
});
