export { buildNodeManagerApp, type BuildNodeManagerAppOptions, type NodeManagerApp } from './app.js';
export {
  startNodeManagerServer,
  openNodeManagerDatabase,
  NODE_MANAGER_SQLITE_FILE,
  type RunningNodeManagerServer,
  type StartNodeManagerServerOptions,
} from './server.js';
export {
  loadNodeManagerConfig,
  nodeManagerConfigSchema,
  type NodeManagerConfig,
  type NodeManagerConfigOverrides,
} from './config.js';
export { nodeManagerProblems, reasonOf, type NodeManagerProblemCode } from './errors.js';
export { nodeManagerMigrations, NODE_MANAGER_MIGRATION_TABLE } from './migrations/index.js';
export { createNodeManagerCore, type NodeManagerCore, type CreateNodeManagerCoreOptions } from './node-manager-core.js';
export type {
  NodeConnector,
  NodeRelease,
  NodeState,
  NodeTarget,
  ReachabilityReport,
} from './connections/node-connector.js';
export { ErlangNodeConnector, type ErlangNodeConnectorOptions } from './connections/erlang-node-connector.js';
export { NodeConnection, type NodeConnectionOptions } from './connections/node-connection.js';
export { DEFAULT_FAMILY_NAME, releaseFamilyName, type AddNodeOptions } from './commands/topology-commands.js';
export { BasicNodeConnector, networkProbes } from './connections/basic-node-connector.js';
export {
  checkReachability,
  splitNodeName,
  EPMD_PORT,
  type ReachabilityProbes,
} from './connections/reachability-checks.js';
export type { RaiseAlarmInput, AlarmRecord } from './model/alarm-record.js';
export { eventIdOf } from './model/erlang-terms.js';
export { ErlangExpression } from './monitoring/erlang-expression.js';
export { SYSTEM_LIMIT_EXPRESSION, parseSystemLimitReading } from './monitoring/system-limit-reading.js';
export { SYSTEM_MONITOR_EXPRESSION } from './monitoring/system-monitor-reading.js';
export { NODE_FACTS_EXPRESSION, parseNodeFacts } from './monitoring/node-facts.js';
export { NodeExplorer, type ExplorerLimits, type ExplorerNode } from './explorer/node-explorer.js';
export { ETS_TABLES_SOURCE, PROCESS_DETAILS_SOURCE, TOP_PROCESSES_SOURCE } from './explorer/explorer-readings.js';
export type { NodeManagerEvent, AlarmEvent, NodeStateEvent } from './events/node-manager-events.js';
export { createUsersCommand, type UsersCommandIo, type UsersCommandOptions } from './cli/users-command.js';
export { createNodeManagerCommand } from './cli/node-manager-command.js';
