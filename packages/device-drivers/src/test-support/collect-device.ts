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
import { DeviceCollector, type DeviceError, type DeviceState } from '../device-collector.js';
import type { DriverRegistry } from '../driver-registry.js';
import { Limiter } from '../limiter.js';
import { prepareDevice, type DeviceBinding } from '../prepare-device.js';

export interface CollectedDevice {
  readonly collector: DeviceCollector;
  readonly origin: string;
  readonly values: DatapointResult[];
  readonly events: PipelineEvent[];
  readonly states: { state: DeviceState; error: DeviceError | null }[];
  /** What the collector and its drivers logged. */
  readonly logs: string[];
  /** The last result of a datapoint, or undefined. */
  last(datapointId: string): DatapointResult | undefined;
}

/**
 * Prepares the device (its problems must be none) and builds its collector; not started. With
 * `periodMs`, every polling group polls at that period instead (faster than any real group, for
 * tests of a running collector), and a device that is down is retried after that period too.
 */
export function collectDevice(
  template: DeviceTemplate,
  binding: DeviceBinding,
  registry: DriverRegistry,
  options: { readonly periodMs?: number } = {},
): CollectedDevice {
  const prepared = prepareDevice(template, binding, registry);
  expect(prepared.problems).toEqual([]);
  const { periodMs } = options;
  const values: DatapointResult[] = [];
  const events: PipelineEvent[] = [];
  const states: CollectedDevice['states'] = [];
  const logs: string[] = [];
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
    log: (message) => logs.push(message),
  });
  const last = (datapointId: string) => values.findLast((v) => v.datapointId === datapointId);
  return { collector, origin: prepared.origin, values, events, states, logs, last };
}
