import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Term } from '@triad/erlang-dist';
import { afterAll, beforeAll, expect } from 'vitest';
import type { NodeManagerConfigOverrides } from '../config.js';
import { NodeConnection } from '../connections/node-connection.js';
import { startErlNode, uniqueAlive, type ErlNode, type ErlNodeOptions } from '../connections/test-support/erl-node.js';
import { ErlangExpression } from '../monitoring/erlang-expression.js';
import { startNodeManagerServer, type RunningNodeManagerServer } from '../server.js';
import { pollUntil } from './poll-until.js';

/** Basic header of the admin every live server starts with. */
export const LIVE_ADMIN = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

/** An alarm as `/api/alarm` lists it (the fields the live tests read). */
export interface LiveAlarm {
  alarmId: string;
  severity: string;
  additionalInformation: string;
  threshold: unknown;
  rawSrc: string;
  src: { nodeId: string; nodeName: string; custom: string; elarmServer: string };
}

/** A real node started for a test, a direct connection to it, and its id once added. */
export interface LiveNode {
  readonly node: ErlNode;
  /** The test's own connection to the node (closed after the block). */
  readonly direct: NodeConnection;
  /** Evaluates Erlang text on the node over the test's own connection (no code loaded). */
  readonly run: (source: string) => Promise<Term>;
}

/** What `useLiveNodeManager` gives the tests of a `describe` block. */
export interface LiveNodeManager {
  readonly server: RunningNodeManagerServer;
  /** Closes the server, runs `meanwhile`, and starts a new one over the same data directory. */
  readonly restart: (meanwhile?: () => Promise<unknown>) => Promise<void>;
  readonly get: <T>(url: string) => Promise<{ status: number; body: T }>;
  /** Active alarms of one node (newest 100 of the service). */
  readonly alarmsOf: (nodeId: string) => Promise<LiveAlarm[]>;
  /** The node's alarms once their ids are exactly `ids` (15 s at most). */
  readonly untilAlarms: (nodeId: string, ids: readonly string[], what: string) => Promise<LiveAlarm[]>;
  /** Starts a node (`extraArgs` for `erl`) and connects to it directly; killed after the block. */
  readonly startNode: (
    prefix: string,
    extraArgs?: readonly string[],
    options?: Pick<ErlNodeOptions, 'fdLimit'>,
  ) => Promise<LiveNode>;
  /** Adds the node through the API; it must be UP. Returns its id. */
  readonly addUp: (node: ErlNode) => Promise<string>;
}

/**
 * Registers, in the calling `describe` block, a real node manager server (SQLite in a fresh data
 * directory, admin `admin`/`Admin123`, `node_down` after 60 s) started before its tests with
 * `overrides`, and stopped with every node and connection the tests started after them.
 */
export function useLiveNodeManager(overrides: NodeManagerConfigOverrides): LiveNodeManager {
  const nodes: ErlNode[] = [];
  const connections: NodeConnection[] = [];
  let dataDir = '';
  let server: RunningNodeManagerServer | undefined;
  const start = () =>
    startNodeManagerServer(
      { port: 0, dataDir, ...overrides },
      {
        env: {
          TRIAD_SCRYPT_COST: '16',
          TRIAD_LOG_LEVEL: 'silent',
          TRIAD_ADMIN_PASSWORD: 'Admin123',
          TRIAD_NODE_DOWN_ALARM_AFTER_MS: '60000',
          // A long garbage collection on a loaded machine must not add alarms to other tests' lists.
          TRIAD_SYSTEM_MONITOR_ALARMS: 'off',
        },
      },
    );
  const current = () => {
    if (!server) throw new Error('The live server starts in beforeAll');
    return server;
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-live-'));
    server = await start();
  }, 20_000);
  afterAll(async () => {
    for (const c of connections) c.close();
    await server?.close();
    await Promise.all(nodes.map((n) => n.kill()));
    await rm(dataDir, { recursive: true, force: true });
  });

  const live: LiveNodeManager = {
    get server() {
      return current();
    },
    restart: async (meanwhile) => {
      await current().close();
      await meanwhile?.();
      server = await start();
    },
    get: async <T>(url: string) => {
      const r = await fetch(`${current().url}${url}`, { headers: LIVE_ADMIN });
      return { status: r.status, body: (await r.json()) as T };
    },
    alarmsOf: async (nodeId) => {
      const { body } = await live.get<{ alarms: LiveAlarm[] }>('/api/alarm?limit=100');
      return body.alarms.filter((a) => a.src.nodeId === nodeId);
    },
    untilAlarms: (nodeId, ids, what) => {
      const wanted = JSON.stringify([...ids].sort());
      return pollUntil(
        async () => {
          const found = await live.alarmsOf(nodeId);
          return JSON.stringify(found.map((a) => a.alarmId).sort()) === wanted ? found : undefined;
        },
        15_000,
        what,
      );
    },
    startNode: async (prefix, extraArgs = [], options = {}) => {
      const node = await startErlNode(uniqueAlive(prefix), `${prefix}cookie`, { ...options, extraArgs });
      nodes.push(node);
      const direct = await NodeConnection.open({
        node: node.name,
        cookie: node.cookie,
        localName: `${uniqueAlive('nmtest')}@localhost`,
      });
      connections.push(direct);
      const run = (source: string) =>
        new ErlangExpression(source).evaluate({ rpc: (_id, m, f, a) => direct.rpc(m, f, a ?? []) }, 'direct', 10_000);
      // A node registers with EPMD before its boot has finished; wait for the application controller.
      await pollUntil(
        async () => ((await run('whereis(application_controller).')).type === 'pid' ? true : undefined),
        10_000,
        'the application controller',
      );
      return { node, direct, run };
    },
    addUp: async (node) => {
      const added = await fetch(`${current().url}/api/topo/action/add-node`, {
        method: 'POST',
        headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: node.name, cookie: node.cookie }),
      });
      expect(added.status).toBe(200);
      const record = (await added.json()) as { id: string; state: string };
      expect(record.state).toBe('UP');
      return record.id;
    },
  };
  return live;
}
