import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { migrateToLatest, type Database } from '@triad/db';
import { buildNodeManagerApp } from '../app.js';
import { loadNodeManagerConfig, type NodeManagerConfigOverrides } from '../config.js';
import type { NodeConnector, NodeRelease, NodeState, ReachabilityReport } from '../connections/node-connector.js';
import { NODE_MANAGER_MIGRATION_TABLE, nodeManagerMigrations } from '../migrations/index.js';
import { createNodeManagerCore, type NodeManagerCore } from '../node-manager-core.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';

/** Password of the test admin. */
export const TEST_ADMIN_PASSWORD = 'adminpw1';

/** Basic header for a user. */
export function basic(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

export const ADMIN = basic('admin', TEST_ADMIN_PASSWORD);

/** A connector that answers from fixed data, for tests. */
export class FakeConnector implements NodeConnector {
  readonly connected: string[] = [];
  readonly disconnected: string[] = [];
  discovered: string[] = [];
  initialState: NodeState = 'DOWN';
  /** What `release` answers (undefined: as when the node cannot be asked). */
  nodeRelease: NodeRelease | undefined;
  /** Node ids `release` was called for. */
  readonly releaseAsked: string[] = [];
  connect(node: { id: string }): Promise<NodeState> {
    this.connected.push(node.id);
    return Promise.resolve(this.initialState);
  }
  disconnect(nodeId: string): Promise<void> {
    this.disconnected.push(nodeId);
    return Promise.resolve();
  }
  state(): NodeState | undefined {
    return undefined;
  }
  release(nodeId: string): Promise<NodeRelease | undefined> {
    this.releaseAsked.push(nodeId);
    return Promise.resolve(this.nodeRelease);
  }
  discover(): Promise<string[]> {
    return Promise.resolve(this.discovered);
  }
  analyseReachability(name: string): Promise<ReachabilityReport> {
    return Promise.resolve({
      reachability: 'should be reachable',
      details: [{ checksPerformed: ['check_node_format'] }],
      description: name,
      hints: [],
    });
  }
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly core: NodeManagerCore;
  readonly connector: FakeConnector;
}

/** Migrates (idempotent), builds the app with a cheap scrypt cost and creates `admin`. */
export async function buildTestApp(
  database: Database<NodeManagerDatabase>,
  overrides: NodeManagerConfigOverrides = {},
  now?: () => number,
): Promise<TestApp> {
  await migrateToLatest(database, { migrations: nodeManagerMigrations, tableName: NODE_MANAGER_MIGRATION_TABLE });
  const config = loadNodeManagerConfig({}, { logLevel: 'silent', scryptCost: 16, ...overrides });
  const connector = new FakeConnector();
  const core = createNodeManagerCore({ config, database, connector, ...(now ? { now } : {}) });
  const { app } = await buildNodeManagerApp({ config, database, core });
  await core.users.ensureAdmin(TEST_ADMIN_PASSWORD);
  await app.ready();
  return { app, core, connector };
}

/**
 * Every table of the node manager, children first; typed by the table map, so a table added there
 * and not here fails to compile.
 */
const TABLES_CHILDREN_FIRST: Record<keyof NodeManagerDatabase, number> = {
  nm_notification_attempts: -11,
  nm_notifications: -10,
  nm_notification_subscriptions: -9,
  nm_notification_channels: -8,
  nm_secret_key_checks: -7,
  nm_node_facts: -6,
  nm_ws_passes: -5,
  nm_work_leases: -4,
  nm_instances: -3,
  nm_service_runs: -2,
  nm_node_logs: -1,
  nm_crash_logs: 0,
  nm_custom_tags: 1,
  nm_bookmarks: 2,
  nm_alarm_tags: 3,
  nm_alarms: 4,
  nm_plugins: 5,
  nm_nodes: 6,
  nm_node_families: 7,
  nm_front_pages: 8,
  nm_users: 9,
};

/** Empties every table except the migrations', then recreates `admin`. */
export async function resetData(database: Database<NodeManagerDatabase>, core: NodeManagerCore): Promise<void> {
  const tables = Object.keys(TABLES_CHILDREN_FIRST) as (keyof NodeManagerDatabase)[];
  for (const table of tables.sort((a, b) => TABLES_CHILDREN_FIRST[a] - TABLES_CHILDREN_FIRST[b])) {
    await database.db.deleteFrom(table).execute();
  }
  // The rows went behind the repositories' backs.
  core.alarmStore.forgetCachedReads();
  core.topologyStore.forgetCachedReads();
  core.users.credentials.forget('admin');
  await core.users.ensureAdmin(TEST_ADMIN_PASSWORD);
}

export interface UseTestAppOptions {
  readonly overrides?: NodeManagerConfigOverrides;
  /** Clock in ms; default `Date.now`. */
  readonly now?: () => number;
  /** Empty the tables before each test (`resetData`); default true. */
  readonly resetEachTest?: boolean;
}

/**
 * Registers, in the calling `describe` block, a test app built once over `getDb()` before its
 * tests and closed after them (and, unless `resetEachTest` is false, `resetData` before each test).
 * Returns a `TestApp` whose members read the app built for the block.
 */
export function useTestApp(getDb: () => Database<NodeManagerDatabase>, options: UseTestAppOptions = {}): TestApp {
  let built: TestApp | undefined;
  const current = (): TestApp => {
    if (!built) throw new Error('The test app is built in beforeAll; use it inside tests and hooks');
    return built;
  };
  beforeAll(async () => {
    built = await buildTestApp(getDb(), options.overrides ?? {}, options.now);
  });
  afterAll(async () => {
    await built?.app.close();
  });
  if (options.resetEachTest !== false) beforeEach(() => resetData(getDb(), current().core));
  return {
    get app() {
      return current().app;
    },
    get core() {
      return current().core;
    },
    get connector() {
      return current().connector;
    },
  };
}
