import type { NodeManagerConfig } from '../config.js';
import { parseLimitThresholds } from '../model/limit-thresholds.js';
import type { AlarmRepository } from '../repositories/alarm-repository.js';
import type { ClusterDiscoveryRepository } from '../repositories/cluster-discovery-repository.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import type { RpcCaller } from './collector.js';
import { ClusterDiscovery, type NodeAdder } from './cluster-discovery.js';
import { CodeLoadCollector } from './code-load-collector.js';
import { NodeLogCollector } from './node-log-collector.js';
import { ExclusiveRpcGate } from './exclusive-rpc-gate.js';
import { KernelMetricsCollector } from './kernel-metrics-collector.js';
import { NodeMonitor, type MonitoredCore } from './node-monitor.js';
import type { MonitorErrorHandler } from './node-down-alarms.js';
import { SaslAlarmCollector } from './sasl-alarm-collector.js';
import { SystemLimitAlarms } from './system-limit-alarms.js';
import { SystemMonitorAlarms } from './system-monitor-alarms.js';
import { CollectorGroup } from './collector-group.js';
import { parseSystemMonitorSettings } from '../model/system-monitor-settings.js';
import { NodeFactsCollector } from './node-facts-collector.js';
import type { MetricHistory } from './metric-history.js';
import type { MetricsStore } from './metrics-store.js';
import type { NodeFactsStore } from './node-facts.js';
import type { NodeLogs } from './node-logs.js';

/** The parts of the node manager's core the built-in collectors use (`NodeManagerCore` has them). */
export interface MonitorCore extends MonitoredCore {
  readonly config: Pick<
    NodeManagerConfig,
    | 'nodeDownAlarmAfterMs'
    | 'metricsPollMs'
    | 'alarmPollMs'
    | 'limitAlarmThresholds'
    | 'limitAlarmPollMs'
    | 'systemMonitorAlarms'
  >;
  readonly topology: NodeAdder;
  readonly topologyStore: TopologyRepository;
  readonly alarmStore: AlarmRepository;
  readonly metrics: MetricsStore;
  readonly metricHistory: MetricHistory;
  readonly facts: NodeFactsStore;
  readonly logs: NodeLogs;
  readonly discovery: ClusterDiscoveryRepository;
  readonly now: () => number;
}

/**
 * Builds and starts the monitor with the built-in collectors (kernel metrics into `core.metrics`
 * and `core.metricHistory` every `metricsPollMs`; SASL alarms and crash reports every
 * `alarmPollMs`); close it on shutdown. `owns` limits it to the nodes this instance monitors
 * (`NodeMonitorOptions.owns`; default all).
 */
export async function startNodeMonitor(
  core: MonitorCore,
  direct: RpcCaller,
  onError?: MonitorErrorHandler,
  owns?: (nodeId: string) => boolean,
): Promise<NodeMonitor> {
  // A kernel sample runs alone on its node, so the run queue it reads holds none of our calls.
  const gate = new ExclusiveRpcGate(direct);
  const rpc = gate.shared;
  const monitor = new NodeMonitor({
    core,
    collectors: [
      new KernelMetricsCollector(
        gate.exclusive,
        core.metrics,
        core.config.metricsPollMs,
        core.now,
        (node, at, samples) => core.metricHistory.record(node.id, at, samples),
      ),
      new SaslAlarmCollector(rpc, core.alarms, core.alarmStore, core.config.alarmPollMs),
      // Before the log collector: plugin changes apply in this order, which the tracer's test relies on.
      new CodeLoadCollector(rpc, core.logs, core.config.alarmPollMs, core.now),
      new NodeLogCollector(rpc, core.logs, core.config.alarmPollMs),
      new ClusterDiscovery(rpc, core.topology, core.topologyStore, core.discovery, core.config.alarmPollMs),
      new CollectorGroup([
        new SystemLimitAlarms(
          rpc,
          core.alarms,
          core.alarmStore,
          core.topologyStore,
          parseLimitThresholds(core.config.limitAlarmThresholds),
          core.config.limitAlarmPollMs,
        ),
        new SystemMonitorAlarms(
          rpc,
          core.alarms,
          core.alarmStore,
          core.topologyStore,
          parseSystemMonitorSettings(core.config.systemMonitorAlarms),
          core.config.limitAlarmPollMs,
        ),
      ]),
      new NodeFactsCollector(
        rpc,
        core.facts,
        core.alarms,
        core.alarmStore,
        core.topologyStore,
        core.config.metricsPollMs,
        core.now,
        owns,
      ),
    ],
    ...(onError ? { onError } : {}),
    ...(owns ? { owns } : {}),
  });
  await monitor.start();
  return monitor;
}
