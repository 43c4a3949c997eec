/**
 * Test support: binds a template to one device (`prepareDevice`) and builds its collector with a
 * sink that records every value, event and state change, as the service would see them.
 */
import {
  compileTemplatePipeline,
  type DatapointResult,
  type DeviceTemplate,
  type PipelineEvent,
} from '@triad/device-templates';
import { expect } from 'vitest';
import { DeviceCollector, type CollectorProblem, type DeviceError, type DeviceState } from '../device-collector.js';
import type { DriverRegistry } from '../driver-registry.js';
import { Limiter } from '../limiter.js';
import { prepareDevice, type DeviceBinding } from '../prepare-device.js';

export interface CollectedDevice {
  readonly collector: DeviceCollector;
  readonly origin: string;
  readonly values: DatapointResult[];
  readonly events: PipelineEvent[];
  readonly states: { state: DeviceState; error: DeviceError | null }[];
  /** Refused readings and unreadable messages, as the collector reported them. */
  readonly problems: CollectorProblem[];
  /** What the collector and its drivers logged. */
  readonly logs: string[];
  /** The last result of a datapoint, or undefined. */
  last(datapointId: string): DatapointResult | undefined;
}

/**
 * Prepares the device (its problems must be none) and builds its collector; not started. With
 * `periodMs`, every polling group polls at that period instead (faster than any real group, for
 * tests of a running collector), and a device that is down is retried after that period too.
 * `readDeadlineMs` is the collector's deadline of one read (its default otherwise).
 */
export function collectDevice(
  template: DeviceTemplate,
  binding: DeviceBinding,
  registry: DriverRegistry,
  options: { readonly periodMs?: number; readonly readDeadlineMs?: number } = {},
): CollectedDevice {
  const prepared = prepareDevice(template, binding, registry);
  expect(prepared.problems).toEqual([]);
  const { periodMs, readDeadlineMs } = options;
  const values: DatapointResult[] = [];
  const events: PipelineEvent[] = [];
  const states: CollectedDevice['states'] = [];
  const logs: string[] = [];
  const problems: CollectorProblem[] = [];
  const collector = new DeviceCollector({
    pipeline: compileTemplatePipeline(template),
    drivers:
      periodMs === undefined
        ? prepared.drivers
        : prepared.drivers.map(({ plan, config }) => ({
            config,
            plan: { ...plan, polls: plan.polls.map((poll) => ({ ...poll, periodMs })) },
          })),
    ...(periodMs === undefined ? {} : { maxBackoffMs: periodMs, random: () => 0.5 }),
    ...(readDeadlineMs === undefined ? {} : { readDeadlineMs }),
    origin: prepared.origin,
    registry,
    limiter: new Limiter(4),
    sink: {
      output: (v, e) => {
        values.push(...v);
        events.push(...e);
      },
      state: (state, error) => states.push({ state, error }),
      problem: (problem) => problems.push(problem),
    },
    log: (message) => logs.push(message),
  });
  const last = (datapointId: string) => values.findLast((v) => v.datapointId === datapointId);
  return { collector, origin: prepared.origin, values, events, states, problems, logs, last };
}

/** A test server that can die and come back on its port. */
export interface RestartableServer {
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `run`'s collector against `server`, kills the server (the device must go down as
 * `refused` from `originType`, `datapointId` bad and its alarm raised, which the template sets
 * for a null value), starts it again (up again, `value` read), then stops both.
 */
export async function expectDownAndBackUp(
  run: CollectedDevice,
  server: RestartableServer,
  expected: { readonly originType: string; readonly datapointId: string; readonly value: unknown },
): Promise<void> {
  const { datapointId } = expected;
  try {
    run.collector.start();
    await expect.poll(() => run.collector.state, { timeout: 5_000 }).toBe('up');
    await server.kill();
    await expect.poll(() => run.collector.state, { timeout: 5_000 }).toBe('down');
    expect(run.states.at(-1)?.error).toMatchObject({ code: 'refused', originType: expected.originType });
    expect(run.last(datapointId)).toMatchObject({ value: null, quality: 'bad' });
    const alarms = run.events.filter((e) => e.type === 'alarm-raised' || e.type === 'alarm-cleared');
    expect(alarms.map((e) => [e.type, e.datapointId])).toEqual([['alarm-raised', datapointId]]);

    await server.restart();
    await expect.poll(() => run.collector.state, { timeout: 5_000 }).toBe('up');
    await expect.poll(() => run.last(datapointId)?.value, { timeout: 5_000 }).toBe(expected.value);
    expect(run.states.map((s) => s.state)).toEqual(['up', 'down', 'up']);
  } finally {
    await run.collector.stop();
    await server.stop();
  }
}
