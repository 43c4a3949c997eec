import { createStarterTemplate, compileTemplatePipeline, type DeviceTemplate } from '@triad/device-templates';
import { describe, expect, it } from 'vitest';
import { DeviceCollector, type DeviceError, type DeviceState } from './device-collector.js';
import { defaultDriverRegistry } from './default-drivers.js';
import { Limiter } from './limiter.js';
import { prepareDevice } from './prepare-device.js';
import type { DatapointResult, PipelineEvent } from '@triad/device-templates';

function icmpTemplate(): DeviceTemplate {
  const template = createStarterTemplate('icmp') as unknown as DeviceTemplate;
  // Poll every 5 s so the test sees a second round quickly; the starter says 30 s.
  for (const set of template.datapointSets ?? [])
    for (const datapoint of set.datapoints) if (datapoint.addressConfig) datapoint.addressConfig.pollingGroup = '5s';
  return template;
}

function collect(address: string, config: Record<string, unknown> = {}) {
  const template = icmpTemplate();
  const registry = defaultDriverRegistry();
  const prepared = prepareDevice(
    template,
    { variables: { ICMP_IPAddress: address }, drivers: { 'svc-ds-drv-icmp': { count: 2, timeout: 500, ...config } } },
    registry,
  );
  expect(prepared.problems).toEqual([]);
  const values: DatapointResult[] = [];
  const events: PipelineEvent[] = [];
  const states: { state: DeviceState; error: DeviceError | null }[] = [];
  const collector = new DeviceCollector({
    pipeline: compileTemplatePipeline(template),
    drivers: prepared.drivers,
    origin: prepared.origin,
    registry,
    limiter: new Limiter(4),
    sink: {
      output: (v, e) => {
        values.push(...v);
        events.push(...e);
      },
      state: (state, error) => states.push({ state, error }),
    },
  });
  return { collector, values, events, states, origin: prepared.origin };
}

describe('DeviceCollector with the ICMP driver (real ping on loopback)', () => {
  it('reads round-trip time and loss from a reachable address and reports the device up', async () => {
    const run = collect('127.0.0.1');
    await run.collector.pollOnce();
    await run.collector.stop();
    expect(run.origin).toBe('127.0.0.1');
    expect(run.states.at(-1)?.state).toBe('up');
    const loss = run.values.find((v) => v.datapointId === 'packetLoss');
    const rtt = run.values.find((v) => v.datapointId === 'roundTripTime');
    expect(loss?.value).toBe(0);
    expect(typeof rtt?.value).toBe('number');
    expect(rtt?.quality).toBe('good');
    // The starter's alarm on "packetLoss has no value" stays quiet.
    expect(run.events.filter((e) => e.type === 'alarm-raised')).toEqual([]);
  });

  it('turns an address that never answers down, with its round-trip time null', async () => {
    // 198.51.100.0/24 (TEST-NET-2) is for documentation: one echo request there never gets a reply.
    const run = collect('198.51.100.1', { count: 1, timeout: 200 });
    await run.collector.pollOnce();
    await run.collector.stop();
    const last = run.states.at(-1);
    expect(last?.state).toBe('down');
    expect(['timeout', 'unreachable']).toContain(last?.error?.code);
    expect(last?.error?.originType).toBe('svc-ds-drv-icmp');
    const rtt = run.values.find((v) => v.datapointId === 'roundTripTime');
    expect(rtt?.value ?? null).toBeNull();
  });

  it('keeps polling on its schedule until stopped', async () => {
    const run = collect('127.0.0.1', { count: 1 });
    run.collector.start();
    await expect.poll(() => run.values.length, { timeout: 5_000 }).toBeGreaterThan(0);
    await run.collector.stop();
    const seen = run.values.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(run.values.length).toBe(seen);
    expect(run.collector.state).toBe('up');
  });
});

describe('prepareDevice', () => {
  it('names an unfilled placeholder and a driver the template does not use', () => {
    const prepared = prepareDevice(icmpTemplate(), { drivers: { 'svc-ds-drv-snmp': {} } }, defaultDriverRegistry());
    expect(prepared.problems.map((p) => p.path)).toEqual(['/variables/ICMP_IPAddress', '/drivers/svc-ds-drv-snmp']);
    expect(prepared.problems[0]?.message).toContain('"ICMP_IPAddress"');
  });

  it('refuses a driver setting of the wrong type', () => {
    const prepared = prepareDevice(
      icmpTemplate(),
      { variables: { ICMP_IPAddress: '127.0.0.1' }, drivers: { 'svc-ds-drv-icmp': { count: 'many' } } },
      defaultDriverRegistry(),
    );
    expect(prepared.problems).toEqual([
      { path: '/drivers/svc-ds-drv-icmp', message: 'count must be an integer from 1 to 100; it is "many"' },
    ]);
  });
});
