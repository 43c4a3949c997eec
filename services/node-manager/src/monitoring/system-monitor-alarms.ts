import type { AlarmSink } from './alarm-sink.js';
import type { AlarmRepository } from '../repositories/alarm-repository.js';
import type { Collector, MonitoredNode, RpcCaller } from './collector.js';
import { nodeFamilyName, type NodeFamilyLookup } from './node-family-name.js';
import { alarmSourceText } from '../model/erlang-terms.js';
import {
  anyWatched,
  SYSTEM_MONITOR_KINDS,
  SYSTEM_MONITOR_SEVERITY,
  systemMonitorThresholdsFor,
  type SystemMonitorKind,
  type SystemMonitorSettings,
  type SystemMonitorThresholds,
} from '../model/system-monitor-settings.js';
import { atom, int } from '@triad/erlang-dist';
import {
  parseSystemMonitorReading,
  SYSTEM_MONITOR_CAP,
  SYSTEM_MONITOR_EXPRESSION,
  systemMonitorOptions,
  type SystemMonitorCount,
} from './system-monitor-reading.js';
import { SYSTEM_LIMIT_ALARMS_PLUGIN } from './system-limit-alarms.js';

/** Alarm of a node whose system monitor someone else holds (so the five alarms cannot be raised). */
export const SYSTEM_MONITOR_UNAVAILABLE = 'system_monitor_unavailable';
/** Source (`src.custom`) of that alarm. */
const UNAVAILABLE_SOURCE = 'system_monitor';
/** Shortest time the node keeps Triad's system monitor without a drain (a lost Triad lets go). */
const MIN_LEASE_MS = 10_000;

type AlarmKey = SystemMonitorKind | typeof SYSTEM_MONITOR_UNAVAILABLE;

/**
 * The alarms `erlang:system_monitor/2` reports: `long_gc`, `long_schedule`, `large_heap`,
 * `busy_port` and `busy_dist_port`, each at most one alarm per node, with the kind as its source
 * (`src.custom`). Every interval one RPC drains what a small process on the node counted
 * (`SYSTEM_MONITOR_EXPRESSION`): a kind seen since the last drain raises (or updates) its alarm;
 * a drain without it clears it. Thresholds come from `settings` by the node's family name. A node
 * whose system monitor another process holds gets `system_monitor_unavailable` (warning) instead;
 * Triad never replaces it. Part of the alarm plugin, with the system-limit alarms.
 */
export class SystemMonitorAlarms implements Collector {
  readonly plugin = SYSTEM_LIMIT_ALARMS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #alarms: AlarmSink;
  readonly #store: AlarmRepository;
  readonly #topology: NodeFamilyLookup;
  readonly #settings: SystemMonitorSettings;
  /** Per node: the alarms this collector holds active. */
  readonly #active = new Map<string, Set<AlarmKey>>();

  constructor(
    rpc: RpcCaller,
    alarms: AlarmSink,
    store: AlarmRepository,
    topology: NodeFamilyLookup,
    settings: SystemMonitorSettings,
    intervalMs: number,
  ) {
    this.#rpc = rpc;
    this.#alarms = alarms;
    this.#store = store;
    this.#topology = topology;
    this.#settings = settings;
    this.intervalMs = intervalMs;
  }

  async collect(node: MonitoredNode): Promise<void> {
    const thresholds = systemMonitorThresholdsFor(this.#settings, await nodeFamilyName(this.#topology, node.id));
    const active = this.#active.get(node.id) ?? (await this.#storedActive(node));
    this.#active.set(node.id, active);
    if (!anyWatched(thresholds)) {
      await this.#evaluate(node, 'stop', thresholds);
      await this.#clearAll(node, active);
      return;
    }
    const reading = parseSystemMonitorReading(await this.#evaluate(node, 'drain', thresholds));
    if (reading.state === 'gone') return;
    if (reading.state === 'taken') {
      for (const kind of SYSTEM_MONITOR_KINDS) await this.#clear(node, active, kind);
      await this.#alarms.raise({
        alarmId: SYSTEM_MONITOR_UNAVAILABLE,
        nodeId: node.id,
        nodeName: node.name,
        custom: UNAVAILABLE_SOURCE,
        severity: 'warning',
        additionalInformation:
          `The node's system monitor is held by ${reading.holder}. Triad does not replace it, so the ` +
          `${SYSTEM_MONITOR_KINDS.join(', ')} alarms are off on this node until it is released.`,
        tags: ['op'],
      });
      active.add(SYSTEM_MONITOR_UNAVAILABLE);
      return;
    }
    await this.#clear(node, active, SYSTEM_MONITOR_UNAVAILABLE);
    const seen = new Map(reading.counts.map((count) => [count.kind, count]));
    for (const kind of SYSTEM_MONITOR_KINDS) {
      const count = seen.get(kind);
      if (!count || thresholds[kind] === false) {
        await this.#clear(node, active, kind);
        continue;
      }
      await this.#alarms.raise({
        alarmId: kind,
        nodeId: node.id,
        nodeName: node.name,
        custom: kind,
        severity: SYSTEM_MONITOR_SEVERITY[kind],
        additionalInformation: describeCount(count, thresholds, this.intervalMs),
        threshold: typeof thresholds[kind] === 'number' ? thresholds[kind] : null,
        tags: ['dev', 'op'],
      });
      active.add(kind);
    }
  }

  /** Plugin off or node deleted: the node lets go of its system monitor and every alarm clears. */
  async stop(node: MonitoredNode): Promise<void> {
    await this.#evaluate(node, 'stop', this.#settings.defaults).catch(() => undefined);
    await this.#clearAll(node, this.#active.get(node.id) ?? (await this.#storedActive(node)));
  }

  /** The node left UP: its alarms clear (the process on it lets go when its lease ends). */
  async paused(node: MonitoredNode): Promise<void> {
    await this.#clearAll(node, this.#active.get(node.id) ?? (await this.#storedActive(node)));
  }

  released(node: MonitoredNode): void {
    this.#active.delete(node.id);
  }

  #evaluate(node: MonitoredNode, mode: 'drain' | 'stop', thresholds: SystemMonitorThresholds) {
    return SYSTEM_MONITOR_EXPRESSION.evaluate(this.#rpc, node.id, undefined, {
      Mode: atom(mode),
      Opts: systemMonitorOptions(thresholds),
      LeaseMs: int(Math.max(MIN_LEASE_MS, 3 * this.intervalMs)),
    });
  }

  async #clear(node: MonitoredNode, active: Set<AlarmKey>, key: AlarmKey): Promise<void> {
    if (!active.has(key)) return;
    const custom = key === SYSTEM_MONITOR_UNAVAILABLE ? UNAVAILABLE_SOURCE : key;
    await this.#alarms.clear(key, alarmSourceText(node.id, node.name, custom, 'wombat'));
    active.delete(key);
  }

  async #clearAll(node: MonitoredNode, active: Set<AlarmKey>): Promise<void> {
    this.#active.delete(node.id);
    for (const key of [...active]) await this.#clear(node, active, key);
  }

  /** The node's active alarms of this collector in the store (what an earlier run raised). */
  async #storedActive(node: MonitoredNode): Promise<Set<AlarmKey>> {
    const active = new Set<AlarmKey>();
    const stored = await this.#store.list({ nodeIds: [node.id], tags: 'all', limit: 10_000 });
    for (const alarm of stored) {
      if (!alarm.active) continue;
      const kind = SYSTEM_MONITOR_KINDS.find((k) => k === alarm.alarmId && k === alarm.custom);
      if (kind) active.add(kind);
      else if (alarm.alarmId === SYSTEM_MONITOR_UNAVAILABLE && alarm.custom === UNAVAILABLE_SOURCE)
        active.add(SYSTEM_MONITOR_UNAVAILABLE);
    }
    return active;
  }
}

/** The alarm text of what one kind did since the previous check, in plain words. */
export function describeCount(count: SystemMonitorCount, thresholds: SystemMonitorThresholds, intervalMs: number) {
  const times =
    count.count === 1
      ? 'once'
      : count.count >= SYSTEM_MONITOR_CAP
        ? `${SYSTEM_MONITOR_CAP.toLocaleString('en')} times or more (counting stops there until the next check)`
        : `${count.count} times`;
  const since = `in the ${seconds(intervalMs)} before the check`;
  switch (count.kind) {
    case 'long_gc':
      return (
        `A garbage collection took over ${String(thresholds.long_gc)} ms ${times} ${since}; ` +
        `the longest took ${count.worst} ms, in ${count.who}.`
      );
    case 'long_schedule':
      return (
        `A process or port ran over ${String(thresholds.long_schedule)} ms without yielding ${times} ${since}; ` +
        `the longest ran ${count.worst} ms: ${count.who}.`
      );
    case 'large_heap':
      return (
        `A process heap grew past ${String(thresholds.large_heap)} MB ${times} ${since}; ` +
        `the largest was ${(count.worst / 1_048_576).toFixed(1)} MB, in ${count.who}.`
      );
    case 'busy_port':
      return `A process was suspended sending to a busy port ${times} ${since}; ${mostOften(count)}.`;
    case 'busy_dist_port':
      return (
        `A process was suspended sending to a busy distribution port (the connection to another node) ` +
        `${times} ${since}; ${mostOften(count)}.`
      );
  }
}

function mostOften(count: SystemMonitorCount): string {
  return count.count === 1 ? `it was ${count.who}` : `the most often, ${count.worst} times: ${count.who}`;
}

function seconds(ms: number): string {
  const value = Math.round(ms / 100) / 10;
  return `${value} second${value === 1 ? '' : 's'}`;
}
