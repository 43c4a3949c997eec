import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { AnyTables, Database } from './database.js';
import { openDatabase } from './open-database.js';
import { POSTGRES_BINARIES_UNAVAILABLE, postgresBinDir } from './start-replicated-postgres.js';

/** Title part of the suite that stands in for PostgreSQL when no server is configured. */
export const POSTGRES_UNAVAILABLE =
  'PostgreSQL not available: install postgresql and set TRIAD_TEST_DATABASE_URL (see README)';

/** Environment the matrix reads: `TRIAD_TEST_DATABASE_URL`, `TRIAD_REQUIRE_SERVICES`. */
export interface TestEnvironment {
  readonly TRIAD_TEST_DATABASE_URL?: string | undefined;
  readonly TRIAD_REQUIRE_SERVICES?: string | undefined;
}

export interface DescribeEachDatabaseOptions {
  /** Where to read the settings; default `process.env` (this test helper is the package's one reader). */
  readonly env?: TestEnvironment;
}

/** Gives the suite's open database; only valid inside hooks and tests. `DB` is its table map. */
export type GetDatabase<DB = AnyTables> = () => Database<DB>;

/**
 * Registers the suite twice: `<title> [sqlite]` on a fresh temporary SQLite file, and
 * `<title> [postgres]` in a fresh schema (via `search_path`) of `TRIAD_TEST_DATABASE_URL`,
 * dropped afterwards. The database is opened before the suite's own `beforeAll` hooks run
 * and closed after its `afterAll` hooks.
 *
 * Without the URL the PostgreSQL suite is registered as skipped, its title naming what to
 * install; with `TRIAD_REQUIRE_SERVICES=1` it fails instead.
 *
 * `DB` is the table map the suite's queries are checked against (`describeEachDatabase<MyTables>`);
 * the database starts empty, so the suite's migrations must create those tables.
 */
export function describeEachDatabase<DB = AnyTables>(
  title: string,
  body: (getDb: GetDatabase<DB>) => void,
  options: DescribeEachDatabaseOptions = {},
): void {
  describeOnSqlite(title, body);
  describePostgresOnly<DB>(title, (getDb) => body(getDb), options);
}

/** What the PostgreSQL half of the matrix does in an environment. */
export type PostgresSuitePlan =
  | { readonly kind: 'run'; readonly url: string }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'fail'; readonly reason: string };

/** Decides the PostgreSQL half: run with the URL, else fail when services are required, else skip. */
export function planPostgresSuite(env: TestEnvironment): PostgresSuitePlan {
  const url = env.TRIAD_TEST_DATABASE_URL?.trim();
  if (url) return { kind: 'run', url };
  if (env.TRIAD_REQUIRE_SERVICES === '1') return { kind: 'fail', reason: POSTGRES_UNAVAILABLE };
  return { kind: 'skip', reason: POSTGRES_UNAVAILABLE };
}

/**
 * Registers the suite on PostgreSQL only, in a fresh schema like `describeEachDatabase`: for what
 * SQLite cannot do (several instances on one database, LISTEN/NOTIFY). Without
 * `TRIAD_TEST_DATABASE_URL` it is skipped with a message saying what to install, or fails with
 * `TRIAD_REQUIRE_SERVICES=1`.
 */
export function describePostgresOnly<DB = AnyTables>(
  title: string,
  body: (getDb: GetDatabase<DB>, url: string) => void,
  options: DescribeEachDatabaseOptions = {},
): void {
  const plan = planPostgresSuite(options.env ?? process.env);
  switch (plan.kind) {
    case 'run':
      describeOnPostgres<DB>(title, plan.url, (getDb) => body(getDb, plan.url));
      break;
    case 'fail':
      describe(`${title} [postgres]`, () => {
        it('requires PostgreSQL because TRIAD_REQUIRE_SERVICES=1', () => {
          throw new Error(plan.reason);
        });
      });
      break;
    case 'skip':
      describe.skip(`${title} [postgres] ${plan.reason}`, () => body(unavailable<DB>, ''));
      break;
  }
}

function describeOnSqlite<DB>(title: string, body: (getDb: GetDatabase<DB>) => void): void {
  describe(`${title} [sqlite]`, () => {
    let directory: string | undefined;
    let database: Database<DB> | undefined;
    beforeAll(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'triad-db-test-'));
      database = openDatabase<DB>({ sqliteFile: path.join(directory, 'test.sqlite') });
    });
    afterAll(async () => {
      await database?.close();
      if (directory) await rm(directory, { recursive: true, force: true });
    });
    body(() => required(database));
  });
}

function describeOnPostgres<DB>(title: string, url: string, body: (getDb: GetDatabase<DB>) => void): void {
  describe(`${title} [postgres]`, () => {
    const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    let admin: Database<Record<string, never>> | undefined;
    let database: Database<DB> | undefined;
    beforeAll(async () => {
      admin = openDatabase<Record<string, never>>({ url, maxConnections: 1 });
      await sql`create schema ${sql.id(schema)}`.execute(admin.db);
      database = openDatabase<DB>({ url, schema, maxConnections: 4 });
    });
    afterAll(async () => {
      await database?.close();
      if (admin) {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
        await admin.close();
      }
    });
    body(() => required(database));
  });
}

function required<DB>(database: Database<DB> | undefined): Database<DB> {
  if (!database) throw new Error('getDb() is only available inside tests and hooks of the suite');
  return database;
}

function unavailable<DB>(): Database<DB> {
  throw new Error(POSTGRES_UNAVAILABLE);
}

export {
  startReplicatedPostgres,
  postgresBinDir,
  POSTGRES_BINARIES_UNAVAILABLE,
  type ReplicatedPostgres,
} from './start-replicated-postgres.js';

/**
 * `describe` for suites that start their own PostgreSQL servers: runs when the server programs
 * are installed, else skips with a title saying to install postgresql, or fails under
 * `TRIAD_REQUIRE_SERVICES=1`.
 */
export function describeWithPostgresBinaries(title: string, body: () => void): void {
  if (postgresBinDir() !== undefined) {
    describe(title, body);
  } else if (process.env['TRIAD_REQUIRE_SERVICES'] === '1') {
    describe(title, () => {
      it('requires the PostgreSQL server programs because TRIAD_REQUIRE_SERVICES=1', () => {
        throw new Error(POSTGRES_BINARIES_UNAVAILABLE);
      });
    });
  } else {
    describe.skip(`${title} (skipped: ${POSTGRES_BINARIES_UNAVAILABLE})`, body);
  }
}

export { freePort } from './free-port.js';
export { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
