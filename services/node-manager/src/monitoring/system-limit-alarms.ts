import type { AlarmSink } from './alarm-sink.js';
import type { AlarmRepository } from '../repositories/alarm-repository.js';
import { nodeFamilyName, type NodeFamilyLookup } from './node-family-name.js';
import type { Collector, MonitoredNode, RpcCaller } from './collector.js';
import { alarmSourceText } from '../model/erlang-terms.js';
import {
  LIMIT_FAMILIES,
  nextLevel,
  thresholdFor,
  type LimitFamily,
  type LimitLevel,
  type LimitThresholdSettings,
} from '../model/limit-thresholds.js';
import { parseSystemLimitReading, SYSTEM_LIMIT_EXPRESSION } from './system-limit-reading.js';

/** Plugin that switches the system-limit alarms (WombatOAM's alarm plugin). */
export const SYSTEM_LIMIT_ALARMS_PLUGIN = 'wombat_plugin_alarm';

/** Tags of each family's alarms (WombatOAM's built-in alarm list). */
const FAMILY_TAGS: Readonly<Record<LimitFamily, readonly string[]>> = Object.freeze({
  process_limit: ['op'],
  port_limit: ['op'],
  atom_limit: ['dev', 'op'],
  ets_limit: ['op'],
  module_limit: ['dev', 'op'],
  export_limit: ['dev', 'op'],
  open_fd_limit_node: ['op'],
  memory_limit: ['dev', 'op'],
  disk_capacity: ['op'],
  process_message_queue: ['dev', 'op'],
});

/**
 * WombatOAM's system-limit alarms: each interval one RPC (`SYSTEM_LIMIT_SOURCE`) reads how full
 * the process, port, atom and ETS tables are, the longest message queue and, where os_mon runs,
 * system memory and the fullest disk. Each family is at most one alarm per node,
 * `<family>_minor` or `<family>_major` (severity `minor` / `major`), with the family name as its
 * source (`src.custom`), so `/api/alarm/source` lists it exactly while it is active. Levels move
 * by `nextLevel` (hysteresis); thresholds come from `settings` by the node's family name. The
 * first read of a node after a start takes the levels of its stored active alarms. A node that
 * leaves UP, a plugin switched off and a deleted node clear every alarm the collector raised.
 */
export class SystemLimitAlarms implements Collector {
  readonly plugin = SYSTEM_LIMIT_ALARMS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #alarms: AlarmSink;
  readonly #store: AlarmRepository;
  readonly #topology: NodeFamilyLookup;
  readonly #settings: LimitThresholdSettings;
  /** Per node: the active level of each family. */
  readonly #levels = new Map<string, Map<LimitFamily, 'minor' | 'major'>>();

  constructor(
    rpc: RpcCaller,
    alarms: AlarmSink,
    store: AlarmRepository,
    topology: NodeFamilyLookup,
    settings: LimitThresholdSettings,
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
    const reading = parseSystemLimitReading(await SYSTEM_LIMIT_EXPRESSION.evaluate(this.#rpc, node.id), node.name);
    const levels = this.#levels.get(node.id) ?? (await this.#storedLevels(node));
    this.#levels.set(node.id, levels);
    const nodeFamily = await nodeFamilyName(this.#topology, node.id);
    for (const family of LIMIT_FAMILIES) {
      const read = reading[family];
      const previous: LimitLevel = levels.get(family);
      const threshold = thresholdFor(this.#settings, family, nodeFamily);
      const level = read ? nextLevel(family, threshold, previous, read.value) : undefined;
      if (level === previous) continue;
      if (previous) await this.#alarms.clear(`${family}_${previous}`, this.#rawSrc(node, family));
      if (level && read) {
        await this.#alarms.raise({
          alarmId: `${family}_${level}`,
          nodeId: node.id,
          nodeName: node.name,
          custom: family,
          severity: level,
          additionalInformation: read.detail,
          threshold: threshold[level],
          tags: FAMILY_TAGS[family],
        });
        levels.set(family, level);
      } else levels.delete(family);
    }
  }

  /** Plugin off or node deleted: every alarm of the node clears. */
  async stop(node: MonitoredNode): Promise<void> {
    await this.#clearAll(node);
  }

  /** The node left UP: as in WombatOAM, its threshold alarms clear. */
  async paused(node: MonitoredNode): Promise<void> {
    await this.#clearAll(node);
  }

  released(node: MonitoredNode): void {
    this.#levels.delete(node.id);
  }

  async #clearAll(node: MonitoredNode): Promise<void> {
    const levels = this.#levels.get(node.id) ?? (await this.#storedLevels(node));
    this.#levels.delete(node.id);
    for (const [family, level] of levels) await this.#alarms.clear(`${family}_${level}`, this.#rawSrc(node, family));
  }

  #rawSrc(node: MonitoredNode, family: LimitFamily): string {
    return alarmSourceText(node.id, node.name, family, 'wombat');
  }

  /** The levels of the node's active alarms of these families in the store (what an earlier run raised). */
  async #storedLevels(node: MonitoredNode): Promise<Map<LimitFamily, 'minor' | 'major'>> {
    const levels = new Map<LimitFamily, 'minor' | 'major'>();
    const stored = await this.#store.list({ nodeIds: [node.id], tags: 'all', limit: 10_000 });
    for (const alarm of stored) {
      const family = LIMIT_FAMILIES.find((f) => f === alarm.custom);
      if (!family || !alarm.active) continue;
      if (alarm.alarmId === `${family}_minor` || alarm.alarmId === `${family}_major`)
        levels.set(family, alarm.alarmId.endsWith('_major') ? 'major' : 'minor');
    }
    return levels;
  }
}
