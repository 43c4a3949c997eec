import { compileTemplatePipeline, createStarterTemplate, type DeviceTemplate } from '@triad/device-templates';
import { describe, expect, it } from 'vitest';
import { DeviceCollector, type DeviceError } from '../../device-collector.js';
import { DriverRegistry } from '../../driver-registry.js';
import { Limiter } from '../../limiter.js';
import { prepareDevice } from '../../prepare-device.js';
import { pnioDriver, PNIO_UNSUPPORTED } from './pnio-driver.js';

describe('the PROFINET driver', () => {
  it('binds the starter template and reports the device down as unsupported, its values bad', async () => {
    const template = createStarterTemplate('pnio') as unknown as DeviceTemplate;
    const registry = new DriverRegistry([pnioDriver]);
    const prepared = prepareDevice(template, { variables: { DCP_IPAddress: '127.0.0.1' } }, registry);
    expect(prepared.problems).toEqual([]);
    const errors: (DeviceError | null)[] = [];
    const qualities: string[] = [];
    const collector = new DeviceCollector({
      pipeline: compileTemplatePipeline(template),
      drivers: prepared.drivers,
      origin: prepared.origin,
      registry,
      limiter: new Limiter(1),
      sink: {
        output: (values) => qualities.push(...values.map((v) => v.quality)),
        state: (_state, error) => errors.push(error),
      },
    });
    await collector.pollOnce();
    await collector.stop();
    expect(collector.state).toBe('down');
    expect(errors.at(-1)).toMatchObject({ code: 'unsupported', message: PNIO_UNSUPPORTED });
    expect(qualities.length).toBeGreaterThan(0);
    expect(new Set(qualities)).toEqual(new Set(['bad']));
  });

  it('names an unfilled ipAddress', () => {
    expect(pnioDriver.check({ ipAddress: '/{DCP_IPAddress}/' })[0]).toContain('placeholder');
    expect(pnioDriver.check({})).toEqual(['ipAddress is required']);
  });
});
