import type { MigrationSet } from '@triad/db';
import { createNodeManager } from './0001-create-node-manager.js';
import { alarmListView } from './0002-alarm-list-view.js';
import { metricHistory } from './0004-metric-history.js';
import { logsDiscoveryAndRuns } from './0005-logs-discovery-and-runs.js';
import { nodeLeases } from './0006-node-leases.js';
import { nodeFacts } from './0007-node-facts.js';
import { wsPassStamps } from './0008-ws-pass-stamps.js';
import { secretKeyChecks } from './0009-secret-key-checks.js';
import { notifications } from './0010-notifications.js';

/** Bookkeeping table of the node manager's migrations (services may share one database). */
export const NODE_MANAGER_MIGRATION_TABLE = 'node_manager_migrations';

/** Every migration of the node manager, by name in run order. */
export const nodeManagerMigrations: MigrationSet = Object.freeze({
  '0001_create_node_manager': createNodeManager,
  '0002_alarm_list_view': alarmListView,
  '0004_metric_history': metricHistory,
  '0005_logs_discovery_and_runs': logsDiscoveryAndRuns,
  '0006_node_leases': nodeLeases,
  '0007_node_facts': nodeFacts,
  '0008_ws_pass_stamps': wsPassStamps,
  '0009_secret_key_checks': secretKeyChecks,
  '0010_notifications': notifications,
});
