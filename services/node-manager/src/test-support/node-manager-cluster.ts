import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { atom } from '@triad/erlang-dist';
import type { Database } from '@triad/db';
import { expect } from 'vitest';
import { NodeConnection } from '../connections/node-connection.js';
import { startErlNode, uniqueAlive, type ErlNode } from '../connections/test-support/erl-node.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { startNodeManagerServer, type RunningNodeManagerServer } from '../server.js';
import { startNodeManagerProcess, type NodeManagerProcess } from './node-manager-process.js';
import { LIVE_ADMIN } from './live-node-manager.js';
import { pollUntil } from './poll-until.js';

/** Lease timing of the tests: a killed instance's nodes move within about 4 s. */
export const TEST_LEASES = Object.freeze({ ttlMs: 3_000, heartbeatMs: 1_000 });

/** `/healthz` of an instance. */
export interface InstanceHealth {
  readonly status: string;
  readonly instance: string;
  readonly nodesOwned: number;
}

/** One node manager of the cluster: in this process or a child process (which can be killed). */
export interface ClusterMember {
  readonly url: string;
  readonly instance: string;
  /** SIGKILL for a child process; a clean close for one in this process. */
  stop(): Promise<void>;
}

/** A real node started for a test and the test's own connection to it. */
export interface SharedNode {
  readonly node: ErlNode;
  readonly direct: NodeConnection;
  /** Its id once added. */
  id: string;
}

/**
 * Several node managers on one PostgreSQL schema (`url` with its `search_path`), sharing a secret
 * key, with short leases (`TEST_LEASES`), alarms read every 200 ms, facts every 500 ms and
 * `node_down` after 1 s.
 * Stop everything with `close()`.
 */
export class NodeManagerCluster {
  readonly #url: string;
  readonly #secretKey = randomBytes(32).toString('hex');
  readonly #dirs: string[] = [];
  readonly #members: ClusterMember[] = [];
  readonly #nodes: SharedNode[] = [];

  /** `url` is the server's; `schema` the one every instance uses. */
  constructor(url: string, schema: string) {
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    this.#url = withSchema.href;
  }

  /** The settings every instance gets, as environment variables. */
  #env(dataDir: string): Record<string, string> {
    return {
      DATABASE_URL: this.#url,
      TRIAD_DATA_DIR: dataDir,
      TRIAD_SECRET_KEY: this.#secretKey,
      TRIAD_SCRYPT_COST: '16',
      TRIAD_LOG_LEVEL: 'silent',
      TRIAD_ADMIN_PASSWORD: 'Admin123',
      TRIAD_NODE_DOWN_ALARM_AFTER_MS: '1000',
      TRIAD_ALARM_POLL_MS: '200',
      TRIAD_METRICS_POLL_MS: '500',
      TRIAD_NODE_MANAGER_LEASE_TTL_MS: String(TEST_LEASES.ttlMs),
      TRIAD_NODE_MANAGER_LEASE_HEARTBEAT_MS: String(TEST_LEASES.heartbeatMs),
    };
  }

  async #dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'nm-cluster-'));
    this.#dirs.push(dir);
    return dir;
  }

  /** Starts an instance in this process. */
  async startHere(
    extraEnv: Readonly<Record<string, string>> = {},
  ): Promise<ClusterMember & { readonly server: RunningNodeManagerServer }> {
    const env = { ...this.#env(await this.#dataDir()), ...extraEnv };
    const server = await startNodeManagerServer({ port: 0 }, { env });
    const member = {
      server,
      url: server.url,
      instance: server.core.ownership.instanceId,
      stop: () => server.close(),
    };
    this.#members.push(member);
    return member;
  }

  /** Starts an instance as a child process (`kill -9` it with `stop`). */
  async startProcess(): Promise<ClusterMember & { readonly process: NodeManagerProcess }> {
    const child = await startNodeManagerProcess(this.#env(await this.#dataDir()));
    const member = { process: child, url: child.url, instance: child.instance, stop: () => child.kill() };
    this.#members.push(member);
    return member;
  }

  /** Starts a real Erlang node with SASL running and connects to it directly. */
  async startNode(prefix: string): Promise<SharedNode> {
    const node = await startErlNode(uniqueAlive(prefix), `${prefix}cookie`, { extraArgs: ['+S', '1:1'] });
    const direct = await NodeConnection.open({
      node: node.name,
      cookie: node.cookie,
      localName: `${uniqueAlive('nmtest')}@localhost`,
    });
    const shared: SharedNode = { node, direct, id: '' };
    this.#nodes.push(shared);
    // A node registers with EPMD before its boot has finished: retry until kernel runs.
    await pollUntil(
      async () => ((await direct.rpc('application', 'start', [atom('sasl')])).type === 'atom' ? true : undefined),
      10_000,
      `SASL on ${node.name}`,
    );
    return shared;
  }

  /** Adds the node through `member`'s API; it must be UP. */
  async add(member: ClusterMember, shared: SharedNode): Promise<string> {
    const added = await fetch(`${member.url}/api/topo/action/add-node`, {
      method: 'POST',
      headers: { ...LIVE_ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: shared.node.name, cookie: shared.node.cookie }),
    });
    expect(added.status).toBe(200);
    const record = (await added.json()) as { id: string; state: string };
    expect(record.state).toBe('UP');
    shared.id = record.id;
    return record.id;
  }

  /** Stops every instance (killing child processes), node and connection; removes the data directories. */
  async close(): Promise<void> {
    for (const member of this.#members.splice(0)) await member.stop().catch(() => {});
    for (const shared of this.#nodes.splice(0)) {
      shared.direct.close();
      await shared.node.kill();
    }
    for (const dir of this.#dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  }
}

/** An instance's `/healthz`. */
export async function healthOf(member: ClusterMember): Promise<InstanceHealth> {
  return (await (await fetch(`${member.url}/healthz`)).json()) as InstanceHealth;
}

/** GET on an instance's API as admin. */
export async function getJson<T>(member: ClusterMember, url: string): Promise<T> {
  const reply = await fetch(`${member.url}${url}`, { headers: LIVE_ADMIN });
  expect(reply.status).toBe(200);
  return (await reply.json()) as T;
}

/** Node id -> owning instance, from the unexpired leases in the database. */
export async function leaseOwners(database: Database<NodeManagerDatabase>): Promise<Map<string, string>> {
  const rows = await sql<{ item_id: string; owner: string }>`
    select item_id, owner from nm_work_leases where expires_at > now()`.execute(database.db);
  return new Map(rows.rows.map((r) => [r.item_id, r.owner]));
}

/** Waits until the live leases cover exactly `nodeIds`, each instance's `/healthz` agreeing. */
export async function untilShared(
  database: Database<NodeManagerDatabase>,
  members: readonly ClusterMember[],
  nodeIds: readonly string[],
  what: string,
  timeoutMs = 20_000,
): Promise<Map<string, string>> {
  return pollUntil(
    async () => {
      const owners = await leaseOwners(database);
      if (owners.size !== nodeIds.length || !nodeIds.every((id) => owners.has(id))) return undefined;
      for (const member of members) {
        const owned = [...owners.values()].filter((o) => o === member.instance).length;
        if ((await healthOf(member)).nodesOwned !== owned) return undefined;
      }
      return [...owners.values()].every((o) => members.some((m) => m.instance === o)) ? owners : undefined;
    },
    timeoutMs,
    what,
  );
}
