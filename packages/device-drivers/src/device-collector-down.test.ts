import { afterAll, beforeAll, expect, it } from 'vitest';
import { DriverRegistry } from './driver-registry.js';
import { snmpDriver } from './drivers/snmp/snmp-driver.js';
import { collectDevice } from './test-support/collect-device.js';
import { describeWithPrograms } from './test-support/real-server.js';
import { SNMPD, SNMPD_INSTALL, startSnmpd, type SnmpdServer } from './test-support/snmpd-server.js';
import { mapSet, snmpPoint, snmpTemplate, tableSet } from './test-support/snmp-templates.js';

describeWithPrograms('DeviceCollector while a device is down (real snmpd)', [SNMPD], SNMPD_INSTALL, () => {
  let snmpd: SnmpdServer;
  beforeAll(async () => {
    snmpd = await startSnmpd();
  });
  afterAll(async () => {
    await snmpd?.close();
  });

  it('marks scalars and every known table row bad, keeps the rows, and comes back up on the same drivers', async () => {
    const template = snmpTemplate([
      mapSet('system', [snmpPoint('name', '1.3.6.1.2.1.1.5.0', 'STRING', {}, 'OCTET_STRING')]),
      tableSet(
        'interfaces',
        'tableDynamic',
        '1.3.6.1.2.1.2.2',
        ['ifIndex'],
        [snmpPoint('ifIndex', '1', 'LONG'), snmpPoint('ifDescr', '2', 'STRING', {}, 'OCTET_STRING')],
      ),
    ]);
    const device = collectDevice(
      template,
      {
        variables: { ICMP_IPAddress: '127.0.0.1' },
        drivers: { 'svc-ds-drv-snmp': { basicConfig: { port: snmpd.port, timeout: 300, retries: 0 } } },
      },
      new DriverRegistry([snmpDriver]),
    );
    await device.collector.pollOnce();
    expect(device.collector.state).toBe('up');
    const rows = device.values.filter((v) => v.datapointId === 'ifDescr').map((v) => v.tableIndex);
    expect(rows.length).toBeGreaterThan(0);

    await snmpd.kill();
    device.values.length = 0;
    await device.collector.pollOnce();
    expect(device.collector.state).toBe('down');
    expect(device.last('name')).toMatchObject({ value: null, quality: 'bad' });
    const badRows = device.values.filter((v) => v.datapointId === 'ifDescr' && v.quality === 'bad');
    expect(badRows.map((v) => v.tableIndex).sort()).toEqual([...rows].sort());

    await snmpd.start();
    await device.collector.pollOnce();
    await device.collector.stop();
    expect(device.collector.state).toBe('up');
    expect(device.last('name')?.quality).toBe('good');
  });
});
