import type { NodeManagerCore } from '../node-manager-core.js';
import type { RpcCaller } from './collector.js';
import { CrashReportCollector } from './crash-report-collector.js';
import { KernelMetricsCollector } from './kernel-metrics-collector.js';
import { NodeMonitor } from './node-monitor.js';
import type { MonitorErrorHandler } from './node-down-alarms.js';
import { SaslAlarmCollector } from './sasl-alarm-collector.js';
import { parseLimitThresholds } from './limit-thresholds.js';
import { SystemLimitAlarms } from './system-limit-alarms.js';
import { NodeFactsCollector } from './node-facts-collector.js';

/**
 * Builds and starts the monitor with the built-in collectors (kernel metrics into
 * `core.metrics` every `metricsPollMs`; SASL alarms and crash reports every `alarmPollMs`);
 * close it on shutdown.
 */
export async function startNodeMonitor(
  core: NodeManagerCore,
  rpc: RpcCaller,
  onError?: MonitorErrorHandler,
): Promise<NodeMonitor> {
  const monitor = new NodeMonitor({
    core,
    collectors: [
      new KernelMetricsCollector(rpc, core.metrics, core.config.metricsPollMs, core.now),
      new SaslAlarmCollector(rpc, core.alarms, core.alarmStore, core.config.alarmPollMs),
      new CrashReportCollector(rpc, core.topologyStore, core.config.alarmPollMs, core.now),
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
      ),
    ],
    ...(onError ? { onError } : {}),
  });
  await monitor.start();
  return monitor;
}
