import type { NodeManagerCore } from '../node-manager-core.js';
import type { RpcCaller } from './collector.js';
import { ClusterDiscovery } from './cluster-discovery.js';
import { CodeLoadCollector } from './code-load-collector.js';
import { NodeLogCollector } from './node-log-collector.js';
import { ExclusiveRpcGate } from './exclusive-rpc-gate.js';
import { KernelMetricsCollector } from './kernel-metrics-collector.js';
import { NodeMonitor } from './node-monitor.js';
import type { MonitorErrorHandler } from './node-down-alarms.js';
import { SaslAlarmCollector } from './sasl-alarm-collector.js';
import { parseLimitThresholds } from './limit-thresholds.js';
import { SystemLimitAlarms } from './system-limit-alarms.js';
import { NodeFactsCollector } from './node-facts-collector.js';

/**
 * Builds and starts the monitor with the built-in collectors (kernel metrics into `core.metrics`
 * and `core.metricHistory` every `metricsPollMs`; SASL alarms and crash reports every
 * `alarmPollMs`); close it on shutdown. `owns` limits it to the nodes this instance monitors
 * (`NodeMonitorOptions.owns`; default all).
 */
export async function startNodeMonitor(
  core: NodeManagerCore,
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
      new SystemLimitAlarms(
        rpc,
        core.alarms,
        core.alarmStore,
        core.topologyStore,
        parseLimitThresholds(core.config.limitAlarmThresholds),
        core.config.limitAlarmPollMs,
      ),
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
