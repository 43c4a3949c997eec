import type { NodeManagerCore } from '../../node-manager-core.js';

/**
 * Start of the hour containing `ms` (UTC hours; every time zone in use has whole-hour or half-hour
 * offsets, see docs).
 */
export function startOfHour(ms: number): number {
  return ms - (ms % 3_600_000);
}

/** The node-stat reply: counts over live nodes and families; `_this_hour` from the start of the current hour. */
export async function nodeStatistics(core: NodeManagerCore) {
  const [nodes, families] = await Promise.all([core.topologyStore.listNodes(), core.topologyStore.listFamilies()]);
  const since = startOfHour(core.now());
  const [crashLogs, newAlarms, activeAlarms] = await Promise.all([
    core.topologyStore.countCrashLogsSince(since),
    core.alarmStore.countRaisedSince(since),
    core.alarmStore.countActive(),
  ]);
  const up = new Set(nodes.filter((n) => n.state === 'UP').map((n) => n.id));
  return {
    number_of_nodes: nodes.length,
    number_of_up_nodes: up.size,
    number_of_families: families.length,
    number_of_crashlogs_this_hour: crashLogs,
    number_of_new_alarms_raised_this_hour: newAlarms,
    number_of_active_alarms: activeAlarms,
    family_stats: families.map((f) => ({
      id: f.id,
      number_of_nodes: f.nodes.length,
      number_of_up_nodes: f.nodes.filter((id) => up.has(id)).length,
    })),
  };
}

/** The node-stat reply. */
export type NodeStatistics = Awaited<ReturnType<typeof nodeStatistics>>;
