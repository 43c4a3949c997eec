import { describe, expect, it } from 'vitest';
import { planCollection } from './collection-plan.js';
import { DriverRegistry } from './driver-registry.js';
import { snmpDriver } from './drivers/snmp/snmp-driver.js';
import { prepareDevice } from './prepare-device.js';
import { mapSet, snmpPoint, snmpTemplate } from './test-support/snmp-templates.js';

describe('prepareDevice with the plans given', () => {
  it('binds devices to the same plans, each with its own settings, as without them', () => {
    const template = snmpTemplate([mapSet('system', [snmpPoint('name', '1.3.6.1.2.1.1.5.0', 'STRING')])]);
    const registry = new DriverRegistry([snmpDriver]);
    const plans = planCollection(template);
    const binding = (port: number) => ({
      variables: { ICMP_IPAddress: '127.0.0.1' },
      drivers: { 'svc-ds-drv-snmp': { basicConfig: { port } } },
    });
    const first = prepareDevice(template, binding(1161), registry, plans);
    const second = prepareDevice(template, binding(1162), registry, plans);
    expect(first.drivers[0]!.plan).toBe(plans[0]);
    expect(second.drivers[0]!.plan).toBe(plans[0]);
    expect([first.drivers[0]!.config, second.drivers[0]!.config]).toMatchObject([
      { basicConfig: { port: 1161 } },
      { basicConfig: { port: 1162 } },
    ]);
    expect(first).toEqual(prepareDevice(template, binding(1161), registry));
  });
});
