import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.js';
import { DatabaseError } from './errors.js';
import { WAL_CHECKPOINT_BYTES } from './sqlite/open-sqlite-database.js';
import { describeEachDatabase } from './testing.js';

describe('openDatabase (SQLite file)', () => {
  const directories: string[] = [];
  afterEach(async () => {
    for (const d of directories.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('creates the parent directory and turns on WAL, foreign keys and a busy timeout', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-db-open-'));
    directories.push(dir);
    const file = path.join(dir, 'nested', 'deeper', 'x.sqlite');
    const database = openDatabase({ sqliteFile: file, busyTimeoutMs: 1234 });
    try {
      expect(database.dialect).toBe('sqlite');
      expect(existsSync(path.dirname(file))).toBe(true);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
      expect(fk.rows[0]?.foreign_keys).toBe(1);
      const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db);
      expect(busy.rows[0]?.timeout).toBe(1234);
      expect(database.location).toBe(file);
    } finally {
      await database.close();
    }
  });

  it('checkpoints the WAL after about 32 MiB, counted in pages of the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-db-wal-'));
    directories.push(dir);
    const checkpointPages = async (name: string, size?: number) => {
      const database = openDatabase({
        sqliteFile: path.join(dir, name),
        ...(size !== undefined ? { sqlitePageSize: size } : {}),
      });
      try {
        const pages = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
        return pages.rows[0]?.wal_autocheckpoint;
      } finally {
        await database.close();
      }
    };
    expect(await checkpointPages('default.sqlite')).toBe(WAL_CHECKPOINT_BYTES / 4096);
    expect(await checkpointPages('large-pages.sqlite', 16_384)).toBe(WAL_CHECKPOINT_BYTES / 16_384);
    expect(WAL_CHECKPOINT_BYTES / 4096).toBeGreaterThan(1000); // SQLite's own default
  });

  it('accepts sqlite: URLs', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-db-url-'));
    directories.push(dir);
    const database = openDatabase({ url: `sqlite://${path.join(dir, 'y.sqlite')}` });
    await database.close();
    expect(database.dialect).toBe('sqlite');
    expect(existsSync(path.join(dir, 'y.sqlite'))).toBe(true);
  });

  it("gives a new file the asked page size, keeps an existing file's, and refuses sizes SQLite has not", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-db-page-'));
    directories.push(dir);
    const file = path.join(dir, 'p.sqlite');
    const pageSize = async (size?: number) => {
      const database = openDatabase({ sqliteFile: file, ...(size !== undefined ? { sqlitePageSize: size } : {}) });
      try {
        await sql`create table if not exists t (n integer)`.execute(database.db);
        return (await sql<{ page_size: number }>`pragma page_size`.execute(database.db)).rows[0]?.page_size;
      } finally {
        await database.close();
      }
    };
    expect(await pageSize(16_384)).toBe(16_384);
    expect(await pageSize(8_192)).toBe(16_384); // the file keeps its own
    expect(await pageSize()).toBe(16_384);
    expect(() => openDatabase({ sqliteFile: path.join(dir, 'q.sqlite'), sqlitePageSize: 3000 })).toThrow(
      /power of two/,
    );
  });

  it('closes idempotently', async () => {
    const database = openDatabase({ sqliteFile: ':memory:' });
    await database.close();
    await expect(database.close()).resolves.toBeUndefined();
  });
});

/** The code of the DatabaseError `open` throws; fails the test when it throws nothing or something else. */
function codeThrownBy(open: () => unknown): string {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseError);
    return (error as DatabaseError).code;
  }
  throw new Error('expected a DatabaseError, nothing was thrown');
}

describe('openDatabase (options)', () => {
  it('rejects missing options with DB_ERR_OPTIONS_MISSING', () => {
    expect(codeThrownBy(() => openDatabase({}))).toBe('DB_ERR_OPTIONS_MISSING');
  });

  it('rejects an unknown URL scheme with DB_ERR_URL_UNSUPPORTED and no password in the message', () => {
    let caught: unknown;
    try {
      openDatabase({ url: 'mysql://root:topsecret@localhost/db' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatabaseError);
    expect((caught as DatabaseError).code).toBe('DB_ERR_URL_UNSUPPORTED');
    expect((caught as DatabaseError).message).not.toContain('topsecret');
  });

  it('rejects a schema name that would need quoting with DB_ERR_SCHEMA_NAME_INVALID', () => {
    expect(codeThrownBy(() => openDatabase({ url: 'postgres://localhost/x', schema: 'a;drop table x' }))).toBe(
      'DB_ERR_SCHEMA_NAME_INVALID',
    );
  });

  it('selects PostgreSQL for postgresql:// URLs without connecting and hides the password in location', async () => {
    const database = openDatabase({ url: 'postgresql://u:pw@127.0.0.1:1/none', schema: 'svc' });
    expect(database.dialect).toBe('postgres');
    expect(database.capabilities.ilike).toBe(true);
    expect(database.location).not.toContain(':pw@');
    expect(database.location).toContain('schema svc');
    await database.close();
  });
});

describeEachDatabase('openDatabase', (getDb) => {
  it('runs queries and reports the dialect capabilities', async () => {
    const database = getDb();
    const result = await sql<{ n: number }>`select 1 + 1 as n`.execute(database.db);
    expect(Number(result.rows[0]?.n)).toBe(2);
    expect(database.capabilities.ilike).toBe(database.dialect === 'postgres');
    expect(database.capabilities.returning).toBe(true);
  });

  it('enforces foreign keys', async () => {
    const { db } = getDb();
    await db.schema
      .createTable('parent')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    await db.schema
      .createTable('child')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('parent_id', 'integer', (c) => c.notNull().references('parent.id'))
      .execute();
    await expect(db.insertInto('child').values({ id: 1, parent_id: 99 }).execute()).rejects.toThrow();
  });
});
