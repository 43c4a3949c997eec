import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, it } from 'vitest';
import { openDatabase, type Database } from '@triad/db';
import { createScratchDatabase, planPostgresSuite } from '@triad/db/testing';
import { startTemplatesProcess, stopTemplatesProcess, type TemplatesProcess } from './templates-process.js';

/** A few template services as child processes on one PostgreSQL database of their own. */
export interface TemplatesCluster {
  /** In start order, dead ones included. */
  readonly services: readonly TemplatesProcess[];
  /** The services' database, for reading their tables. */
  readonly database: Database;
  /** The services still running. */
  alive(): TemplatesProcess[];
  /** Stops them (SIGTERM), drops the database. */
  close(): Promise<void>;
}

/** Time a cluster test waits for a condition: generous, the machine is shared. */
export const CLUSTER_WAIT = { timeout: 40_000, interval: 250 } as const;

/**
 * Creates a database on `postgresUrl`'s server (so the services' change bus hears no other
 * suite), starts `count` services on it (instances `templates-0`, `templates-1`...) with short
 * leases, `env` added, the first alone (it migrates), and waits until every one has heartbeated,
 * so any lease cycle from then on sees them all. Leases last 6 s with a beat every 2 s: an
 * instance counts as gone after 6 s without a beat, which a machine busy with every suite at once
 * must not reach, or devices move back and forth.
 */
export async function startTemplatesCluster(
  postgresUrl: string,
  count: number,
  env: Readonly<Record<string, string>> = {},
): Promise<TemplatesCluster> {
  const scratch = await createScratchDatabase(postgresUrl, 'triad_devices');
  const database = openDatabase({ url: scratch.url, maxConnections: 2 });
  const directory = await mkdtemp(path.join(tmpdir(), 'triad-instances-'));
  const services: TemplatesProcess[] = [];
  const close = async () => {
    await Promise.all(services.map((s) => stopTemplatesProcess(s)));
    await database.close();
    await scratch.drop();
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const secretKey = randomBytes(32).toString('hex');
    const settings = (n: number) => ({
      DATABASE_URL: scratch.url,
      TRIAD_DATA_DIR: path.join(directory, `instance-${n}`),
      TRIAD_TEMPLATES_INSTANCE_ID: `templates-${n}`,
      TRIAD_SECRET_KEY: secretKey,
      TRIAD_DEMO: 'false',
      TRIAD_TEMPLATES_WRITE_ACCESS: 'open',
      TRIAD_DEVICES_READ_ACCESS: 'open',
      TRIAD_TEMPLATES_LEASE_TTL_MS: '6000',
      TRIAD_TEMPLATES_LEASE_HEARTBEAT_MS: '2000',
      TRIAD_LOG_FORMAT: 'json',
      TRIAD_LOG_LEVEL: 'info',
      ...env,
    });
    services.push(await startTemplatesProcess(settings(0)));
    const others = Array.from({ length: count - 1 }, (_, n) => startTemplatesProcess(settings(n + 1)));
    services.push(...(await Promise.all(others)));
    const deadline = Date.now() + CLUSTER_WAIT.timeout;
    const live = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from templates_instances`.execute(database.db)).rows[0]?.n;
    while ((await live()) !== count) {
      if (Date.now() > deadline) throw new Error(`the ${count} instances did not all heartbeat`);
      await new Promise((resolve) => setTimeout(resolve, CLUSTER_WAIT.interval));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    services,
    database,
    alive: () => services.filter((s) => s.child.exitCode === null && s.child.signalCode === null),
    close,
  };
}

/**
 * Registers a suite that needs PostgreSQL: run with `TRIAD_TEST_DATABASE_URL`, else skipped with
 * what to install, or failing when `TRIAD_REQUIRE_SERVICES=1`.
 */
export function describeOnPostgres(title: string, body: (postgresUrl: string) => void): void {
  const plan = planPostgresSuite(process.env);
  if (plan.kind === 'run') describe(title, () => body(plan.url));
  else if (plan.kind === 'fail')
    describe(title, () => {
      it('requires PostgreSQL because TRIAD_REQUIRE_SERVICES=1', () => {
        throw new Error(plan.reason);
      });
    });
  else describe.skip(`${title}: ${plan.reason}`, () => body(''));
}

/** Fetches `url` and parses the JSON reply; throws with the reply when it is not 2xx. */
export async function fetchJson<T>(url: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}
