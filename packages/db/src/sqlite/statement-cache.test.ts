import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

describe('withStatementCache', () => {
  const opened: BetterSqlite3.Database[] = [];
  const open = () => {
    const connection = new BetterSqlite3(':memory:');
    opened.push(connection);
    return connection;
  };
  afterEach(() => {
    for (const c of opened.splice(0)) if (c.open) c.close();
  });

  it('hands back the same prepared statement for the same SQL text', () => {
    const cached = withStatementCache(open());
    const first = cached.prepare('select 1 as one');
    expect(cached.prepare('select 1 as one')).toBe(first);
    expect(cached.prepare('select 2 as two')).not.toBe(first);
  });

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const cached = withStatementCache(open(), 2);
    const a = cached.prepare('select 1');
    const b = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(a); // a is now the most recently used
    cached.prepare('select 3'); // evicts b
    expect(cached.prepare('select 1')).toBe(a);
    expect(cached.prepare('select 2')).not.toBe(b);
  });

  it('prepares a fresh statement while the cached one is still iterating', () => {
    const connection = open();
    connection.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const cached = withStatementCache(connection);
    const text = 'select n from t order by n';
    const iterator = (cached.prepare(text) as BetterSqlite3.Statement).iterate();
    iterator.next();
    const second = cached.prepare(text);
    expect(second.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    iterator.return?.();
  });

  it('serves Kysely queries correctly across inserts, re-runs and a schema change', async () => {
    const db = new Kysely<{ t: { n: number; m?: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(open()) }),
    });
    await db.schema.createTable('t').addColumn('n', 'integer').execute();
    for (const n of [1, 2, 3]) await db.insertInto('t').values({ n }).execute();
    const read = () => db.selectFrom('t').selectAll().orderBy('n').execute();
    expect(await read()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await db.schema.alterTable('t').addColumn('m', 'text').execute();
    await sql`update t set m = 'x' || n`.execute(db);
    expect(await read()).toEqual([
      { n: 1, m: 'x1' },
      { n: 2, m: 'x2' },
      { n: 3, m: 'x3' },
    ]);
    await db.destroy();
  });
});
