/**
 * Keeps flat values in the device history (decision 0050, "Flat values"). A polled datapoint is
 * handed to the history at every poll, but a pushed one (an MQTT topic published on change, an
 * OPC UA subscription) only when it changes, so a value that holds wrote nothing and a chart
 * showed a hole. Once a minute, shortly before the minute ends, `beat` queues again every current
 * value that has no row in that minute yet, stamped now, if its device is `up` and the value is
 * good and has one. A device that is down, a bad value and a device not collected get none: their
 * hole stays a hole. A datapoint read at least once a minute always has its row and costs nothing.
 */
import type { DeviceState } from '@triad/device-drivers';
import type { DatapointResult } from '@triad/device-templates';
import { HISTORY_MINUTE_MS } from '../model/device-history.js';
import type { HistoryWriter } from './history-writer.js';

/** A device collected here as the supervisor lists it. */
export interface HeartbeatDevice {
  readonly id: string;
  readonly state: DeviceState;
  readonly values: Iterable<DatapointResult>;
}

export interface HistoryHeartbeatOptions {
  /** The devices collected here, with their current values. */
  readonly devices: () => Iterable<HeartbeatDevice>;
  readonly history: Pick<HistoryWriter, 'heartbeat'>;
  readonly now?: () => number;
}

/** When in each minute the heartbeat runs, ms after its start: late, so this minute's polls came first. */
export const HEARTBEAT_AT_MS = 50_000; // 50 s

export class HistoryHeartbeat {
  readonly #options: HistoryHeartbeatOptions;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: HistoryHeartbeatOptions) {
    this.#options = options;
  }

  /** Runs `beat` at `HEARTBEAT_AT_MS` into every minute until `stop`. */
  start(): void {
    if (this.#timer !== undefined) return;
    const schedule = () => {
      const now = this.#now();
      const minute = Math.floor(now / HISTORY_MINUTE_MS) * HISTORY_MINUTE_MS;
      const next =
        minute + HEARTBEAT_AT_MS > now ? minute + HEARTBEAT_AT_MS : minute + HISTORY_MINUTE_MS + HEARTBEAT_AT_MS;
      this.#timer = setTimeout(() => {
        this.beat();
        schedule();
      }, next - now);
      this.#timer.unref();
    };
    schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Queues every current value of a device that is up which is good, has a value and has no row in
   * the minute of `at` (its time is earlier), stamped `at`. Returns how many were queued.
   */
  beat(at = this.#now()): number {
    const minute = Math.floor(at / HISTORY_MINUTE_MS) * HISTORY_MINUTE_MS;
    let queued = 0;
    for (const device of this.#options.devices()) {
      if (device.state !== 'up') continue;
      const flat: DatapointResult[] = [];
      for (const result of device.values) if (result.timestamp < minute && holds(result)) flat.push(result);
      if (flat.length > 0) queued += this.#options.history.heartbeat(device.id, flat, at);
    }
    return queued;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}

/** A value the device still has: good and not null (a bad one is a hole). */
function holds(result: DatapointResult): boolean {
  return result.quality === 'good' && result.value !== null && result.value !== undefined;
}
