import { hostname } from 'node:os';
import path from 'node:path';
import { openServiceDatabase, SecretKeyCheckTable, type Database } from '@triad/db';
import {
  closeOnce,
  listenService,
  serviceCloser,
  serviceLogger,
  verifySecretKey,
  type Logger,
  type ServiceStartOptions,
} from '@triad/service-kit';
import { buildNodeManagerApp } from './app.js';
import { loadNodeManagerConfig, type NodeManagerConfig, type NodeManagerConfigOverrides } from './config.js';
import type { NodeConnector } from './connections/node-connector.js';
import { ErlangNodeConnector } from './connections/erlang-node-connector.js';
import type { NodeManagerDatabase } from './repositories/node-manager-tables.js';
import { NODE_MANAGER_MIGRATION_TABLE, nodeManagerMigrations } from './migrations/index.js';
import type { NodeMonitor } from './monitoring/node-monitor.js';
import { startNodeMonitor } from './monitoring/start-node-monitor.js';
import { loadSecretKeys, NODE_MANAGER_KEY_NAMES } from './secrets/secret-key-store.js';
import { ServiceRunRepository } from './repositories/service-run-repository.js';
import type { NodeManagerCore } from './node-manager-core.js';
import { demoNodeAlive, startDemo, type DemoOutcome } from './demo/demo-node.js';
import { shareNodes } from './instances/share-nodes.js';
import { startDiscoveryNode, type DiscoveryNode } from './discovery/start-discovery-node.js';

/** A listening node manager. */
export interface RunningNodeManagerServer {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly config: NodeManagerConfig;
  /** Internal API (alarms.raise/clear, topology.setNodeState) for in-process callers. */
  readonly core: NodeManagerCore;
  /** Lines to print once: the docs page and, on first start, the generated admin password. */
  readonly notes: readonly string[];
  /** Stops listening and closes the database. Idempotent. */
  close(): Promise<void>;
}

export interface StartNodeManagerServerOptions extends ServiceStartOptions<NodeManagerConfigOverrides> {
  /** Default `BasicNodeConnector`. */
  readonly connector?: NodeConnector;
}

/**
 * How long an alarm list stays cached on PostgreSQL (ms): the change bus drops it at once when
 * any instance changes an alarm; this bounds how stale it gets if such a message is lost.
 */
export const SHARED_ALARM_LIST_CACHE_MS = 1_000;

/** SQLite file of the service inside the data directory. */
export const NODE_MANAGER_SQLITE_FILE = 'node-manager.sqlite';

/**
 * Opens (and migrates) the node manager's database as configured: PostgreSQL with `databaseUrl`,
 * else `<dataDir>/node-manager.sqlite`.
 */
export function openNodeManagerDatabase(
  config: NodeManagerConfig,
  logger?: Logger,
  options: { readonly asService?: boolean } = {},
): Promise<Database<NodeManagerDatabase>> {
  return openServiceDatabase<NodeManagerDatabase>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sqliteFile: NODE_MANAGER_SQLITE_FILE,
    migrations: nodeManagerMigrations,
    tableName: NODE_MANAGER_MIGRATION_TABLE,
    // The service claims a SQLite file for itself; the commands (users, rotate-key) open it beside it.
    ...(options.asService ? { singleInstance: 'the node manager' } : {}),
    ...(logger ? { log: logger } : {}),
  });
}

/**
 * Loads config (environment, then `overrides`), opens and migrates the database, checks that the
 * secret key is the one the stored cookies are sealed with (`SecretKeyMismatchError` otherwise),
 * creates the `admin` user on first start (password from `TRIAD_ADMIN_PASSWORD`, else generated
 * and returned in `notes`, never logged) and listens (default port 8080). `/healthz` answers 200
 * only once the admin user exists.
 */
export async function startNodeManagerServer(
  overrides: NodeManagerConfigOverrides = {},
  options: StartNodeManagerServerOptions = {},
): Promise<RunningNodeManagerServer> {
  const config = loadNodeManagerConfig(options.env, overrides, options.fallbacks);
  const logger = serviceLogger(options.logger, config, 'node-manager');
  const database = await openNodeManagerDatabase(config, logger, { asService: true });
  try {
    // The real connection layer unless a caller supplies another (tests, tools without Erlang).
    const erlang = options.connector
      ? undefined
      : new ErlangNodeConnector({
          epmdPort: config.epmdPort,
          onFailure: (nodeId, failure) =>
            logger.warn({ nodeId, kind: failure.kind, code: failure.code }, failure.message),
        });
    const connector = options.connector ?? erlang!;
    const keys = await loadSecretKeys({ secretKey: config.secretKey, dataDir: config.dataDir });
    // Before any cookie is opened or sealed: a key the stored cookies do not open refuses the start.
    const keyCheck = await verifySecretKey(
      keys.cipher,
      new SecretKeyCheckTable(database, 'nm_secret_key_checks'),
      NODE_MANAGER_KEY_NAMES,
    );
    // `/healthz` answers 503 until every configured credential works (issue 23: "ready means ready").
    let pending: string | undefined = 'creating the admin user';
    // Self-registration (TRIAD_NODE_NAME): closed first, so no node is added while we stop.
    let discovery: DiscoveryNode | undefined;
    const { app, core } = await buildNodeManagerApp({
      config,
      database,
      logger,
      connector,
      cookies: keys.cipher,
      pending: () => pending,
      epmdRegistration: () => {
        const state = discovery?.epmdState();
        return state === 'registered' || state === 'reregistering' ? state : 'off';
      },
      // PostgreSQL: the change relay (shareNodes) drops cached alarm lists on others' changes.
      ...(database.capabilities.concurrentWriters ? { sharedListCacheMs: SHARED_ALARM_LIST_CACHE_MS } : {}),
      ...(options.consoleLinks ? { consoleLinks: options.consoleLinks } : {}),
      ...(options.consoleRoot !== undefined ? { consoleRoot: options.consoleRoot } : {}),
    });
    // Plain-text cookies of older versions, and any left under the old key by an interrupted rotation.
    const sealed = await core.topologyStore.resealCookies();
    await core.notifications.channels.resealSecrets();
    await keys.finish();
    await keyCheck.commit();
    if (sealed > 0) logger.info({ cookies: sealed }, 'sealed stored node cookies with the current key');
    const presented = await core.alarmStore.presentMissing();
    if (presented > 0) logger.info({ alarms: presented }, 'stored the list form of older alarms');
    let monitor: NodeMonitor | undefined;
    if (erlang) {
      // Alarms and collectors follow the state changes recorded below (docs/decisions/0012), for
      // the nodes this instance holds the lease of.
      monitor = await startNodeMonitor(
        core,
        erlang,
        (error, nodeId, what) => logger.warn({ err: error, nodeId }, `monitoring: ${what} failed`),
        (nodeId) => core.ownership.owns(nodeId),
      );
      erlang.setStateListener((nodeId, state) => {
        core.topology
          .setNodeState(nodeId, state)
          .catch((error: unknown) => logger.error({ err: error, nodeId }, 'could not record a node state'));
      });
    }
    // This instance's share of the nodes (all on SQLite), connected in the background; on
    // PostgreSQL changes are shared with the other instances (docs/decisions/0027).
    const shared = await shareNodes({
      database,
      core,
      logger,
      ...(erlang && monitor ? { monitoring: { erlang, monitor } } : {}),
    });
    // Alarm notifications leave through the outbox, on every instance (docs/decisions/0043).
    core.notifications.worker.start();
    let demo: DemoOutcome | undefined;
    // Recorded while listening, so `triad node-manager rotate-key` can refuse to run under us.
    const runs = new ServiceRunRepository(database);
    let runId: string | undefined;
    const close = closeOnce(
      () => discovery?.close(),
      () => app.close(),
      () => shared.close(),
      () => monitor?.close(),
      () => core.notifications.worker.stop(),
      () => erlang?.close(),
      () => demo?.stop(),
      () => (runId === undefined ? undefined : runs.forget(runId)),
      () => database.close(),
    );
    let url: string;
    let bootstrap: Awaited<ReturnType<typeof core.users.ensureAdmin>>;
    try {
      url = await listenService(app, config.host, config.port);
      // Only once the port is ours: a generated admin password is shown once, so it must not be
      // created by a start that then fails (port taken) and never prints it.
      bootstrap = await core.users.ensureAdmin(config.adminPassword);
      runId = await runs.register(hostname(), process.pid, Date.now());
      discovery = await startDiscoveryNode(config, {
        topology: core.topology,
        store: core.topologyStore,
        logger,
        epmdPort: config.epmdPort,
      });
      pending = undefined;
    } catch (error) {
      await close().catch(() => {});
      throw error;
    }
    const closeService = serviceCloser(close, app.log, options.handleSignals ?? false);
    const notes = [`API docs: ${url}/docs`, `authentication: ${config.authentication ? 'on (HTTP Basic)' : 'off'}`];
    if (discovery) notes.push(`Erlang node ${discovery.name} (port ${discovery.port}): nodes may register themselves`);
    if (config.demo && erlang) {
      try {
        demo = await startDemo(core, {
          url,
          // One demo node per installation: named after the store it belongs to.
          alive: demoNodeAlive(config.databaseUrl ?? path.resolve(config.dataDir)),
          onError: (error) => logger.warn({ err: error }, 'demo node'),
        });
      } catch (error) {
        await closeService().catch(() => {});
        throw error;
      }
      notes.push(demo.note);
    }
    if (bootstrap.generatedPassword)
      notes.push(`admin user created; password (shown once): ${bootstrap.generatedPassword}`);
    else if (bootstrap.created) notes.push('admin user created with the password from TRIAD_ADMIN_PASSWORD');
    return {
      url,
      config,
      core,
      notes,
      close: closeService,
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
