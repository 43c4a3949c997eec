import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '@triad/db';
import { sql } from 'kysely';
import { describeEachDatabase, planPostgresSuite } from '@triad/db/testing';
import { KeyRotationRefused, rotateSecretKey } from '../commands/rotate-secret-key.js';
import { loadNodeManagerConfig } from '../config.js';
import { nodeManagerMigrations, NODE_MANAGER_MIGRATION_TABLE } from '../migrations/index.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { ServiceRunRepository } from '../repositories/service-run-repository.js';
import type { NodeRecord } from '../model/node-record.js';
import { TopologyRepository } from '../repositories/topology-repository.js';
import { CookieCipher, CookieSealError } from '../secrets/cookie-cipher.js';
import { decodeSecretKey, loadSecretKeys, NEW_SECRET_KEY_FILE, SECRET_KEY_FILE } from '../secrets/secret-key-store.js';
import { openNodeManagerDatabase, startNodeManagerServer } from '../server.js';
import { memoryUsersIo } from '../test-support/memory-users-io.js';
import { createNodeManagerCommand } from './node-manager-command.js';

const env = { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent' };

const node = (name: string, cookie: string): NodeRecord => ({
  id: `id-${name}`,
  name,
  familyId: 'f',
  host: 'h',
  cookie,
  domainId: 'd',
  state: 'DOWN',
  tref: 't',
  pluginsOpts: [],
  deleted: false,
});

describe('triad node-manager rotate-key (SQLite, key file)', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-rotate-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const run = async (...args: string[]) => {
    const io = memoryUsersIo();
    await createNodeManagerCommand(io, { env }).parseAsync([
      'node',
      'node-manager',
      'rotate-key',
      '--data-dir',
      dataDir,
      ...args,
    ]);
    return io;
  };
  /** Stores a node with `cookie` sealed under the data directory's key, as a stopped service left it. */
  const storeNode = async (cookie: string) => {
    const database = await openNodeManagerDatabase(loadNodeManagerConfig(env, { dataDir, logLevel: 'silent' }));
    try {
      const keys = await loadSecretKeys({ dataDir });
      await new TopologyRepository(database, Date.now, keys.cipher).insertNode(node('a@h', cookie));
    } finally {
      await database.close();
    }
  };
  const storedCookie = async (cipher: CookieCipher) => {
    const database = await openNodeManagerDatabase(loadNodeManagerConfig(env, { dataDir, logLevel: 'silent' }));
    try {
      const [node] = await new TopologyRepository(database, Date.now, cipher).listNodes();
      return node?.cookie;
    } finally {
      await database.close();
    }
  };

  it('reseals every cookie with a new key file, which alone opens them afterwards', async () => {
    await storeNode('secret-cookie');
    const oldKey = decodeSecretKey(await readFile(path.join(dataDir, SECRET_KEY_FILE), 'utf8'));
    const io = await run();
    expect(io.stderr.text).toBe('');
    expect(io.exitCode).toBe(0);
    expect(io.stdout.text).toContain('resealed 1 node cookie(s) with the new key');
    const newKey = decodeSecretKey(await readFile(path.join(dataDir, SECRET_KEY_FILE), 'utf8'));
    expect(newKey.equals(oldKey)).toBe(false);
    expect(existsSync(path.join(dataDir, NEW_SECRET_KEY_FILE))).toBe(false);
    expect(await storedCookie(new CookieCipher([newKey]))).toBe('secret-cookie');
    await expect(storedCookie(new CookieCipher([oldKey]))).rejects.toBeInstanceOf(CookieSealError);
  });

  it('refuses while the service runs, changing nothing, and rotates once it stopped', async () => {
    await storeNode('live-cookie');
    const keyBefore = await readFile(path.join(dataDir, SECRET_KEY_FILE), 'utf8');
    const server = await startNodeManagerServer({ port: 0, dataDir }, { env });
    let refused;
    try {
      refused = await run();
    } finally {
      await server.close();
    }
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.text).toContain(`the node manager is running (pid ${process.pid} on ${hostname()})`);
    expect(refused.stderr.text).toContain('nothing was changed');
    expect(await readFile(path.join(dataDir, SECRET_KEY_FILE), 'utf8')).toBe(keyBefore);
    expect(existsSync(path.join(dataDir, NEW_SECRET_KEY_FILE))).toBe(false);
    const after = await run();
    expect(after.exitCode).toBe(0);
    expect(await readFile(path.join(dataDir, SECRET_KEY_FILE), 'utf8')).not.toBe(keyBefore);
  });

  it('says so when there is no database, creating nothing', async () => {
    const io = await run();
    expect(io.exitCode).toBe(2);
    expect(io.stderr.text).toContain('no node-manager database at');
    expect(existsSync(path.join(dataDir, SECRET_KEY_FILE))).toBe(false);
  });

  it('lists the command with its options in --help', () => {
    const io = memoryUsersIo();
    const command = createNodeManagerCommand(io, { env });
    const help = command.commands.find((c) => c.name() === 'rotate-key')?.helpInformation() ?? '';
    expect(help).toContain('--new-key-file <file>');
    expect(help).toContain('--force');
  });
});

describeEachDatabase<NodeManagerDatabase>('rotateSecretKey', (getDb) => {
  let dataDir: string;
  beforeAll(async () => {
    await migrateToLatest(getDb(), { migrations: nodeManagerMigrations, tableName: NODE_MANAGER_MIGRATION_TABLE });
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-rotate-db-'));
    await getDb().db.deleteFrom('nm_nodes').execute();
    await getDb().db.deleteFrom('nm_service_runs').execute();
    // Each test starts from a database that has recorded no key yet.
    await getDb().db.deleteFrom('nm_secret_key_checks').execute();
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const hex = (byte: string) => byte.repeat(64);

  it('with TRIAD_SECRET_KEY, reseals with the new key given, and refuses without one', async () => {
    const current = new CookieCipher([decodeSecretKey(hex('a'))]);
    await new TopologyRepository(getDb(), Date.now, current).insertNode(node('b@h', 'pg-cookie'));
    await expect(rotateSecretKey({ database: getDb(), dataDir, secretKey: hex('a') })).rejects.toThrow(
      'TRIAD_NEW_SECRET_KEY',
    );
    const outcome = await rotateSecretKey({ database: getDb(), dataDir, secretKey: hex('a'), newSecretKey: hex('b') });
    expect(outcome).toEqual({ resealed: 1, keySource: 'setting', staleRuns: 0 });
    const fresh = new CookieCipher([decodeSecretKey(hex('b'))]);
    expect((await new TopologyRepository(getDb(), Date.now, fresh).listNodes())[0]?.cookie).toBe('pg-cookie');
    await expect(new TopologyRepository(getDb(), Date.now, current).listNodes()).rejects.toBeInstanceOf(
      CookieSealError,
    );
  });

  it('forgets runs of dead processes on this machine, refuses for others unless forced', async () => {
    const runs = new ServiceRunRepository(getDb());
    await runs.register('this-host', 999_999, 1);
    await runs.register('other-host', 1234, 2);
    const options = { database: getDb(), dataDir, host: 'this-host', isAlive: () => false };
    const refusal = await rotateSecretKey(options).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(KeyRotationRefused);
    expect((refusal as KeyRotationRefused).running.map((r) => r.host)).toEqual(['other-host']);
    expect(existsSync(path.join(dataDir, SECRET_KEY_FILE))).toBe(false);
    const forced = await rotateSecretKey({ ...options, force: true });
    expect(forced.keySource).toBe(path.join(dataDir, SECRET_KEY_FILE));
    expect((await runs.list()).map((r) => r.host)).toEqual(['other-host']);
  });
});

const pg = planPostgresSuite(process.env);
(pg.kind === 'skip' ? describe.skip : describe)(
  `triad node-manager rotate-key on PostgreSQL ${pg.kind === 'skip' ? pg.reason : ''}`,
  () => {
    it('reseals the cookies of a PostgreSQL database through --database-url', async () => {
      if (pg.kind !== 'run') throw new Error(pg.reason);
      const schema = `nm_rotate_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
      const url = new URL(pg.url);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const dataDir = await mkdtemp(path.join(tmpdir(), 'nm-rotate-pg-'));
      const admin = openDatabase({ url: pg.url });
      await sql`create schema ${sql.id(schema)}`.execute(admin.db);
      try {
        const config = loadNodeManagerConfig(env, { dataDir, databaseUrl: url.href, logLevel: 'silent' });
        const database = await openNodeManagerDatabase(config);
        try {
          const keys = await loadSecretKeys({ dataDir });
          await new TopologyRepository(database, Date.now, keys.cipher).insertNode(node('pg@h', 'pg-secret'));
        } finally {
          await database.close();
        }
        const oldKey = decodeSecretKey(await readFile(path.join(dataDir, SECRET_KEY_FILE), 'utf8'));
        const io = memoryUsersIo();
        await createNodeManagerCommand(io, { env }).parseAsync([
          'node',
          'node-manager',
          'rotate-key',
          '--data-dir',
          dataDir,
          '--database-url',
          url.href,
        ]);
        expect(io.stderr.text).toBe('');
        expect(io.stdout.text).toContain('resealed 1 node cookie(s)');
        const newKey = decodeSecretKey(await readFile(path.join(dataDir, SECRET_KEY_FILE), 'utf8'));
        const reopened = await openNodeManagerDatabase(config);
        try {
          expect(
            (await new TopologyRepository(reopened, Date.now, new CookieCipher([newKey])).listNodes())[0]?.cookie,
          ).toBe('pg-secret');
          await expect(
            new TopologyRepository(reopened, Date.now, new CookieCipher([oldKey])).listNodes(),
          ).rejects.toBeInstanceOf(CookieSealError);
        } finally {
          await reopened.close();
        }
      } finally {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
        await admin.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  },
);
