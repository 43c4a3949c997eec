import { afterAll, beforeAll, expect, it } from 'vitest';
import { DriverRegistry } from '../../driver-registry.js';
import { collectDevice } from '../../test-support/collect-device.js';
import { describeWithPrograms } from '../../test-support/real-server.js';
import { mapSet, snmpPoint, snmpTemplate, tableSet } from '../../test-support/snmp-templates.js';
import { SNMPD, SNMPD_INSTALL, startSnmpd, type SnmpdServer } from '../../test-support/snmpd-server.js';
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
});
