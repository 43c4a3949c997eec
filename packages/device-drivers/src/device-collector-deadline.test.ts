import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceError } from './device-collector.js';
import { DriverRegistry } from './driver-registry.js';
import { snmpDriver } from './drivers/snmp/snmp-driver.js';
import { collectDevice } from './test-support/collect-device.js';
import { mapSet, snmpPoint, snmpTemplate } from './test-support/snmp-templates.js';

/** A collector of one SNMP datapoint against an agent that never answers (its own timeout: 30 s). */
function silentDevice(port: number, readDeadlineMs: number) {
  const template = snmpTemplate([mapSet('system', [snmpPoint('name', '1.3.6.1.2.1.1.5.0', 'STRING')])]);
  return collectDevice(
    template,
    {
      variables: { ICMP_IPAddress: '127.0.0.1' },
      drivers: { 'svc-ds-drv-snmp': { basicConfig: { port, timeout: 30_000, retries: 0 } } },
    },
    new DriverRegistry([snmpDriver]),
    { readDeadlineMs },
  );
}

describe('DeviceCollector read deadline (a real UDP socket that never answers)', () => {
  let agent: Socket;
  let port: number;
  const received: number[] = [];
  beforeAll(async () => {
    agent = createSocket('udp4');
    agent.on('message', (message) => received.push(message.length));
    await new Promise<void>((resolve) => agent.bind(0, '127.0.0.1', resolve));
    port = agent.address().port;
  });
  afterAll(() => agent.close());

  it('ends a read that outlives the deadline: the device is down with a timeout, its values bad', async () => {
    const device = silentDevice(port, 200);
    await device.collector.pollOnce();
    await device.collector.stop();
    expect(received.length).toBeGreaterThan(0);
    expect(device.states).toEqual([
      {
        state: 'down',
        error: expect.objectContaining({
          code: 'timeout',
          message: 'svc-ds-drv-snmp: no answer within the read deadline',
        }) as DeviceError,
      },
    ]);
    expect(device.values).toMatchObject([{ datapointId: 'name', value: null, quality: 'bad' }]);
  });

  it('stop cuts a read in flight short and reports nothing for it', async () => {
    const device = silentDevice(port, 60_000);
    const before = received.length;
    const poll = device.collector.pollOnce();
    while (received.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    await device.collector.stop();
    await poll;
    expect(device.states).toEqual([]);
    expect(device.values).toEqual([]);
  });
});
