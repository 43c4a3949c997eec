import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { DatabaseError } from './errors.js';
import { openDatabase } from './open-database.js';
import { isUnreachable, openReadReplicas, type ReadReplicas } from './read-replicas.js';
import { replicaStatus } from './replica-status.js';
import { startReplicatedPostgres, type ReplicatedPostgres } from './start-replicated-postgres.js';
import { describeWithPostgresBinaries } from './testing.js';

function recordingLog() {
  const warnings: { object: object; message: string }[] = [];
  return { warnings, log: { warn: (object: object, message: string) => warnings.push({ object, message }) } };
}

describe('openReadReplicas (SQLite primary)', () => {
  let directory: string;
  let primary: Database;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-replicas-'));
    primary = openDatabase({ sqliteFile: path.join(directory, 'x.sqlite') });
  });
  afterAll(async () => {
    await primary.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('ignores replica URLs with a warning and reads from the primary', async () => {
    const { warnings, log } = recordingLog();
    const replicas = openReadReplicas(primary, ['postgres://reader:secret@127.0.0.1:1/x'], { log });
    expect(replicas.all).toEqual([]);
    expect(replicas.pick()).toBe(primary);
    expect(await replicas.read((db) => Promise.resolve(db))).toBe(primary);
    expect(warnings.map((w) => w.message)).toEqual([
      'read replica URLs ignored: the data lives in SQLite, which has no replicas',
    ]);
    expect(JSON.stringify(warnings[0]?.object)).not.toContain('secret');
    await replicas.close();
  });

  it('picks the primary when no replica is configured', () => {
    const replicas = openReadReplicas(primary, [' ', '']);
    expect(replicas.all).toEqual([]);
    expect(replicas.pick()).toBe(primary);
  });

  it('refuses a replica URL that is not PostgreSQL, without showing its password', () => {
    let caught: unknown;
    try {
      openReadReplicas(primary, ['mysql://u:hunter22@db/x']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatabaseError);
    expect((caught as DatabaseError).code).toBe('DB_ERR_URL_UNSUPPORTED');
    expect((caught as DatabaseError).message).not.toContain('hunter22');
  });
});

describe('isUnreachable', () => {
  it('tells a server that is gone from an error of the query', () => {
    expect(isUnreachable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(isUnreachable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isUnreachable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isUnreachable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isUnreachable(Object.assign(new Error('read-only transaction'), { code: '25006' }))).toBe(false);
    expect(isUnreachable('ECONNREFUSED')).toBe(false);
  });
});

describeWithPostgresBinaries('openReadReplicas (primary and hot standby)', () => {
  let servers: ReplicatedPostgres;
  let primary: Database;
  let clock = 0;
  let replicas: ReadReplicas;
  const { warnings, log } = recordingLog();

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    primary = openDatabase({ url: servers.primaryUrl, maxConnections: 2 });
    await sql`create table counters (name text primary key, n integer not null)`.execute(primary.db);
    await sql`insert into counters values ('a', 1)`.execute(primary.db);
    await servers.waitForReplay();
    // The same standby twice: two pools, so the rotation between two replicas shows.
    replicas = openReadReplicas(primary, [servers.standbyUrl, servers.standbyUrl], {
      log,
      retryAfterMs: 1000,
      maxConnections: 2,
      now: () => clock,
    });
  });

  afterAll(async () => {
    await replicas?.close();
    await primary?.close();
    await servers?.stop();
  });

  const inRecovery = async (database: Database) =>
    (await sql<{ r: boolean }>`select pg_is_in_recovery() as r`.execute(database.db)).rows[0]?.r;

  it('rotates reads over the replicas, which serve the primary’s data', async () => {
    const [first, second] = replicas.all;
    expect(replicas.all).toHaveLength(2);
    expect([replicas.pick(), replicas.pick(), replicas.pick()]).toEqual([first, second, first]);
    expect(replicas.pick()).not.toBe(primary);
    const n = await replicas.read(async (database) => {
      expect(await inRecovery(database)).toBe(true);
      return (await sql<{ n: number }>`select n from counters where name = 'a'`.execute(database.db)).rows[0]?.n;
    });
    expect(n).toBe(1);
  });

  it('keeps a failed replica out of rotation until its retry time, then tries it again', () => {
    const [first, second] = replicas.all;
    if (!first || !second) throw new Error('two replicas expected');
    replicas.markFailed(first, new Error('test'));
    replicas.markFailed(primary, new Error('ignored'));
    expect([replicas.pick(), replicas.pick()]).toEqual([second, second]);
    replicas.markFailed(second, new Error('test'));
    expect(replicas.pick()).toBe(primary);
    clock += 1000;
    expect(new Set([replicas.pick(), replicas.pick()])).toEqual(new Set([first, second]));
    expect(warnings.filter((w) => w.message.startsWith('read replica failed'))).toHaveLength(2);
  });

  it('reads from the primary while the standby is down, and from the standby again once it is back', async () => {
    await servers.stopStandby();
    try {
      await sql`update counters set n = 2 where name = 'a'`.execute(primary.db);
      const servedBy = await replicas.read(async (database) => ((await inRecovery(database)) ? 'standby' : 'primary'));
      expect(servedBy).toBe('primary');
      // The replica that failed is out of rotation: the next read tries the other one, which fails too.
      expect(await replicas.read(async (database) => ((await inRecovery(database)) ? 'standby' : 'primary'))).toBe(
        'primary',
      );
      expect(replicas.pick()).toBe(primary);
    } finally {
      await servers.startStandby();
    }
    await servers.waitForReplay();
    clock += 1000;
    const after = await replicas.read(async (database) => ({
      standby: await inRecovery(database),
      n: (await sql<{ n: number }>`select n from counters where name = 'a'`.execute(database.db)).rows[0]?.n,
    }));
    expect(after).toEqual({ standby: true, n: 2 });
  });

  it('rethrows errors of the query itself without failing over', async () => {
    await expect(replicas.read((database) => sql`select * from no_such_table`.execute(database.db))).rejects.toThrow(
      /no_such_table/,
    );
    expect(replicas.pick()).not.toBe(primary);
  });

  it('reports replay state: a primary is not in recovery, a caught-up standby is', async () => {
    expect(await replicaStatus(primary)).toEqual({
      inRecovery: false,
      lastReplayAt: null,
      lagSeconds: 0,
      caughtUp: true,
    });
    await sql`update counters set n = 3 where name = 'a'`.execute(primary.db);
    await servers.waitForReplay();
    const [standby] = replicas.all;
    if (!standby) throw new Error('a replica expected');
    const status = await replicaStatus(standby);
    expect(status.inRecovery).toBe(true);
    expect(status.caughtUp).toBe(true);
    expect(status.lastReplayAt).toBeInstanceOf(Date);
    expect(status.lagSeconds).toBeGreaterThanOrEqual(0);
  });
});
