import { sql, type Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { binaryOrder, containsIgnoringCase, escapeLike, startsWith } from './sql-helpers.js';
import { describeEachDatabase } from './testing.js';

interface Tables {
  words: { word: string };
}

describeEachDatabase('sql helpers', (getDb) => {
  const words = ['Alpha', 'alpha', 'ALPHABET', 'beta', '50% off', '50 percent', 'a_b', 'axb', 'Zed', 'zed'];
  let db: Kysely<Tables>;
  beforeAll(async () => {
    db = getDb().db as Kysely<Tables>;
    await db.schema
      .createTable('words')
      .addColumn('word', 'text', (c) => c.notNull())
      .execute();
    await db
      .insertInto('words')
      .values(words.map((word) => ({ word })))
      .execute();
  });

  it('containsIgnoringCase matches regardless of ASCII case', async () => {
    const rows = await db
      .selectFrom('words')
      .select('word')
      .where(containsIgnoringCase(getDb().capabilities, sql.ref('word'), 'LPHA'))
      .execute();
    expect(rows.map((r) => r.word).sort()).toEqual(['ALPHABET', 'Alpha', 'alpha']);
  });

  it('containsIgnoringCase takes % and _ literally', async () => {
    const percent = await db
      .selectFrom('words')
      .select('word')
      .where(containsIgnoringCase(getDb().capabilities, sql.ref('word'), '0%'))
      .execute();
    expect(percent.map((r) => r.word)).toEqual(['50% off']);
    const underscore = await db
      .selectFrom('words')
      .select('word')
      .where(containsIgnoringCase(getDb().capabilities, sql.ref('word'), 'a_b'))
      .execute();
    expect(underscore.map((r) => r.word)).toEqual(['a_b']);
  });

  it('startsWith compares case-sensitively', async () => {
    const rows = await db
      .selectFrom('words')
      .select('word')
      .where(startsWith(sql.ref('word'), 'alpha'))
      .execute();
    expect(rows.map((r) => r.word)).toEqual(['alpha']);
  });

  it('binaryOrder sorts by code point on both engines', async () => {
    const rows = await db
      .selectFrom('words')
      .select('word')
      .orderBy(binaryOrder(getDb().capabilities, sql.ref('word')))
      .execute();
    expect(rows.map((r) => r.word)).toEqual([...words].sort());
  });

  it('escapeLike escapes wildcards and the escape character', () => {
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
  });
});

describeEachDatabase('isUniqueViolation', (getDb) => {
  it('recognises a duplicate primary key on both engines and nothing else', async () => {
    const { isUniqueViolation } = await import('./constraint-errors.js');
    const db = getDb().db as Kysely<{ keyed: { id: number; name: string | null } }>;
    await db.schema
      .createTable('keyed')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
    await db.insertInto('keyed').values({ id: 1, name: 'a' }).execute();
    const duplicate = await db
      .insertInto('keyed')
      .values({ id: 1, name: 'b' })
      .execute()
      .catch((e: unknown) => e);
    expect(isUniqueViolation(duplicate)).toBe(true);
    const notNull = await db
      .insertInto('keyed')
      .values({ id: 2, name: null })
      .execute()
      .catch((e: unknown) => e);
    expect(notNull).toBeInstanceOf(Error);
    expect(isUniqueViolation(notNull)).toBe(false);
  });
});
