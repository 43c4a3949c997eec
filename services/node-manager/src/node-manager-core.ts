import { newInstanceId, type Database } from '@triad/db';
import { AlarmCommands } from './commands/alarm-commands.js';
import { AlarmRepository } from './repositories/alarm-repository.js';
import { Authenticator } from './auth/authenticator.js';
import { CredentialCache } from './auth/credential-cache.js';
import { DEFAULT_LOGIN_THROTTLE_POLICY, LoginThrottle } from './auth/login-throttle.js';
import { defaultHashConcurrency, HASH_QUEUE_PER_RUN, PasswordHasher } from './auth/password-hasher.js';
import { RecentUsers } from './auth/recent-users.js';
import { WsPassStore } from './auth/ws-pass-store.js';
import { LiveSessions } from './auth/live-sessions.js';
import { TopologyCommands } from './commands/topology-commands.js';
import { UserCommands } from './commands/user-commands.js';
import { parseTagSetting, type NodeManagerConfig } from './config.js';
import { BasicNodeConnector } from './connections/basic-node-connector.js';
import type { NodeConnector } from './connections/node-connector.js';
import { NodeManagerEvents } from './events/node-manager-events.js';
import { MetricHistory } from './monitoring/metric-history.js';
import { MetricsStore } from './monitoring/metrics-store.js';
import { NodeFactsStore } from './monitoring/node-facts.js';
import { NodeLogs } from './monitoring/node-logs.js';
import { CookieCipher } from './secrets/cookie-cipher.js';
import { CHANNEL_SECRETS } from './secrets/channel-secrets.js';
import { createNotifications, type Notifications } from './notifications/notifications.js';
import { BookmarkRepository } from './repositories/bookmark-repository.js';
import { ClusterDiscoveryRepository } from './repositories/cluster-discovery-repository.js';
import { MetricHistoryRepository } from './repositories/metric-history-repository.js';
import type { NodeManagerDatabase } from './repositories/node-manager-tables.js';
import { NodeLogRepository } from './repositories/node-log-repository.js';
import { PluginRepository } from './repositories/plugin-repository.js';
import { TagRepository } from './repositories/tag-repository.js';
import { TopologyRepository } from './repositories/topology-repository.js';
import { UserRepository } from './repositories/user-repository.js';
import { WsPassRepository } from './repositories/ws-pass-repository.js';
import { NodeFactsRepository } from './repositories/node-facts-repository.js';
import { NodeOwnership } from './instances/node-ownership.js';
import { NodeExplorer } from './explorer/node-explorer.js';
import { ExplorerRequests } from './explorer/explorer-requests.js';
import type { RpcCaller } from './monitoring/collector.js';
import { presentAlarm } from './presenters/alarm-presenter.js';
import { presentNodeLog } from './presenters/node-log-presenter.js';

/** Everything behind the HTTP layer; also the internal API (alarms.raise/clear, topology.setNodeState). */
export interface NodeManagerCore {
  readonly config: NodeManagerConfig;
  readonly connector: NodeConnector;
  readonly events: NodeManagerEvents;
  readonly users: UserCommands;
  readonly authenticator: Authenticator;
  readonly passes: WsPassStore;
  /** Open live sockets per user; they end when their user changes (`UserCommands.onChange`). */
  readonly sessions: LiveSessions;
  readonly topology: TopologyCommands;
  readonly topologyStore: TopologyRepository;
  readonly alarms: AlarmCommands;
  readonly alarmStore: AlarmRepository;
  readonly plugins: PluginRepository;
  readonly bookmarks: BookmarkRepository;
  readonly tags: TagRepository;
  /** Latest samples of the metric collectors, exported at `GET /metrics` (empty without a monitor). */
  readonly metrics: MetricsStore;
  /** Sampled metrics over time (raw, then per-minute averages), in the database. */
  readonly metricHistory: MetricHistory;
  /** Latest facts of UP nodes (OTP release, uptime, applications ...), shown on node objects. */
  readonly facts: NodeFactsStore;
  /** Log entries collected from nodes: stored, counted as crash logs, pushed live. */
  readonly logs: NodeLogs;
  /** The per-family cluster discovery switch. */
  readonly discovery: ClusterDiscoveryRepository;
  /** Which nodes this instance monitors (all on SQLite; its leases on PostgreSQL, docs/decisions/0027). */
  readonly ownership: NodeOwnership;
  /** On-demand reads of a node's processes and ETS tables (`/api/explorer/...`). */
  readonly explorer: NodeExplorer;
  /** Explorer runs started through WombatOAM's service routes, readable for 60 s. */
  readonly explorerRequests: ExplorerRequests;
  /** Alarm notifications: channels, subscriptions, the outbox and its worker (docs/decisions/0043). */
  readonly notifications: Notifications;
  /** The tags that filter alarms when authentication is off. */
  readonly defaultUserTags: 'all' | readonly string[];
  readonly now: () => number;
}

export interface CreateNodeManagerCoreOptions {
  readonly config: NodeManagerConfig;
  /** An open, migrated database; not closed by the core. */
  readonly database: Database<NodeManagerDatabase>;
  /** Default `BasicNodeConnector` (no Erlang). */
  readonly connector?: NodeConnector;
  /** Clock in ms; default `Date.now`. */
  readonly now?: () => number;
  /** Seals node cookies at rest (`loadSecretKeys`); default a random in-memory key (tests only). */
  readonly cookies?: CookieCipher;
  /** This instance's id among several on one database; default `newInstanceId()`. */
  readonly instanceId?: string;
  /**
   * On a database several instances write: keep alarm lists this long (ms), relying on the change
   * bus to drop them when another instance changes an alarm (`ChangeRelay`). Default none.
   */
  readonly sharedListCacheMs?: number;
  /** Where background work reports failures (notification deliveries); default nowhere. */
  readonly log?: { warn(fields: object, message: string): void };
}

/** Wires repositories, commands and the connector over one database. */
export function createNodeManagerCore(options: CreateNodeManagerCoreOptions): NodeManagerCore {
  const { config, database } = options;
  const now = options.now ?? Date.now;
  const defaultUserTags = parseTagSetting(config.defaultUserTags);
  const events = new NodeManagerEvents();
  const connector: NodeConnector = options.connector ?? new BasicNodeConnector();
  const users = new UserCommands(
    new UserRepository(database, now),
    hasherOf(config),
    defaultUserTags,
    new CredentialCache(),
    new RecentUsers(config.userRecheckMs, now),
  );
  const cookies = options.cookies ?? CookieCipher.ephemeral();
  const topologyStore = new TopologyRepository(database, now, cookies);
  const plugins = new PluginRepository(database);
  const alarmStore = new AlarmRepository(
    database,
    presentAlarm,
    options.sharedListCacheMs === undefined ? {} : { sharedListCacheMs: options.sharedListCacheMs, now },
  );
  const tags = new TagRepository(database);
  const ownership = new NodeOwnership(options.instanceId ?? config.instanceId ?? newInstanceId());
  const alarms = new AlarmCommands(alarmStore, topologyStore, tags, events, presentAlarm, now);
  const notifications = createNotifications({
    database,
    settings: config,
    secrets: cookies.withPurpose(CHANNEL_SECRETS),
    lookups: {
      userTags: async (username) => (await users.users.find(username))?.tags,
      familyOf: async (nodeId) => (await topologyStore.findNode(nodeId))?.familyId,
    },
    instanceId: ownership.instanceId,
    ownPorts: () => [config.port],
    log: options.log ?? { warn: () => undefined },
    now,
  });
  // Alarm handling only starts the outbox insert; the worker delivers (docs/decisions/0043).
  alarms.observe(notifications.observe);
  const userStore = users.users;
  const passes = new WsPassStore(
    config.wsPassTtlMs,
    // The pass check reads the stored user itself: a change made anywhere ends the pass.
    { find: (username) => userStore.find(username) },
    now,
    // Several instances may share PostgreSQL: a pass from one must open a socket on another.
    database.capabilities.concurrentWriters ? new WsPassRepository(database) : undefined,
  );
  const sessions = new LiveSessions();
  // Sessions end when their reason does: a changed or deleted user keeps no pass and no live socket.
  users.onChange((username) => {
    void passes.revoke(username);
    sessions.end(username);
  });
  const logs = new NodeLogs(
    new NodeLogRepository(database, config.logsPerNode),
    topologyStore,
    events,
    presentNodeLog,
    now,
  );
  return {
    config,
    connector,
    events,
    users,
    authenticator: new Authenticator(
      users,
      config.authentication,
      defaultUserTags,
      new LoginThrottle(DEFAULT_LOGIN_THROTTLE_POLICY, now),
    ),
    passes,
    sessions,
    topology: new TopologyCommands(topologyStore, plugins, connector, events, ownership),
    topologyStore,
    alarms,
    alarmStore,
    plugins,
    bookmarks: new BookmarkRepository(database, now),
    tags,
    metrics: new MetricsStore(),
    metricHistory: new MetricHistory(
      new MetricHistoryRepository(database),
      { rawMs: config.metricsRawRetentionMs, minuteMs: config.metricsMinuteRetentionMs },
      now,
    ),
    facts: new NodeFactsStore(database.capabilities.concurrentWriters ? new NodeFactsRepository(database) : undefined),
    logs,
    discovery: new ClusterDiscoveryRepository(database),
    explorer: new NodeExplorer(rpcOf(connector), {
      timeoutMs: config.explorerTimeoutMs,
      callsPerNode: config.explorerCallsPerNode,
    }),
    explorerRequests: new ExplorerRequests(now),
    ownership,
    notifications,
    defaultUserTags,
    now,
  };
}

/** The connector's RPC for the explorer; undefined for a connector without Erlang connections. */
function rpcOf(connector: NodeConnector): RpcCaller | undefined {
  const rpc = connector.rpc?.bind(connector);
  return rpc ? { rpc } : undefined;
}

/** The sign-in hasher the settings ask for (0s pick the defaults). */
function hasherOf(config: NodeManagerConfig): PasswordHasher {
  const concurrency = config.passwordHashConcurrency || defaultHashConcurrency();
  return new PasswordHasher(
    config.scryptCost,
    concurrency,
    config.passwordHashQueue || concurrency * HASH_QUEUE_PER_RUN,
  );
}
