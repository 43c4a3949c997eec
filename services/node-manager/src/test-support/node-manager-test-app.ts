import type { FastifyInstance } from 'fastify';
import { migrateToLatest, type Database } from '@triad/db';
import { buildNodeManagerApp } from '../app.js';
import { loadNodeManagerConfig, type NodeManagerConfigOverrides } from '../config.js';
import type { NodeConnector, NodeRelease, NodeState, ReachabilityReport } from '../connections/node-connector.js';
import { NODE_MANAGER_MIGRATION_TABLE, nodeManagerMigrations } from '../migrations/index.js';
import { createNodeManagerCore, type NodeManagerCore } from '../node-manager-core.js';

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
  async connect(node: { id: string }): Promise<NodeState> {
    this.connected.push(node.id);
    return this.initialState;
  }
  async disconnect(nodeId: string): Promise<void> {
    this.disconnected.push(nodeId);
  }
  state(): NodeState | undefined {
    return undefined;
  }
  async release(nodeId: string): Promise<NodeRelease | undefined> {
    this.releaseAsked.push(nodeId);
    return this.nodeRelease;
  }
  async discover(): Promise<string[]> {
    return this.discovered;
  }
  async analyseReachability(name: string): Promise<ReachabilityReport> {
    return {
      reachability: 'should be reachable',
      details: [{ checksPerformed: ['check_node_format'] }],
      description: name,
      hints: [],
    };
  }
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly core: NodeManagerCore;
  readonly connector: FakeConnector;
}

/** Migrates (idempotent), builds the app with a cheap scrypt cost and creates `admin`. */
export async function buildTestApp(
  database: Database,
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

/** Empties every table except the migrations', then recreates `admin`. */
export async function resetData(database: Database, core: NodeManagerCore): Promise<void> {
  for (const table of [
    'nm_crash_logs',
    'nm_custom_tags',
    'nm_bookmarks',
    'nm_alarm_tags',
    'nm_alarms',
    'nm_plugins',
    'nm_nodes',
    'nm_node_families',
    'nm_front_pages',
    'nm_users',
  ]) {
    await database.db.deleteFrom(table).execute();
  }
  // The rows went behind the repositories' backs.
  core.alarmStore.forgetCachedReads();
  core.topologyStore.forgetCachedReads();
  core.users.credentials.forget('admin');
  await core.users.ensureAdmin(TEST_ADMIN_PASSWORD);
}
