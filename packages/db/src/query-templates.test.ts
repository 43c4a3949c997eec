import type { Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { QueryTemplates } from './query-templates.js';
import { describeEachDatabase } from './testing.js';

interface Tables {
  items: { id: number; kind: string; size: number };
}

describeEachDatabase('QueryTemplates', (getDb) => {
  let db: Kysely<Tables>;
  beforeAll(async () => {
    db = getDb().db as Kysely<Tables>;
    await db.schema
      .createTable('items')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('kind', 'text')
      .addColumn('size', 'integer')
      .execute();
    await db
      .insertInto('items')
      .values(
        Array.from({ length: 30 }, (_, i) => ({ id: i + 1, kind: ['a', 'b', 'c'][i % 3] as string, size: i * 10 })),
      )
      .execute();
  });

  const byKinds = (kinds: readonly string[]) => `kinds:${kinds.length}`;

  it('gives the same rows as the query built afresh, for new values of the same shape', async () => {
    const templates = new QueryTemplates(db);
    for (const [kinds, below, limit] of [
      [['a'], 200, 5],
      [['b'], 120, 3],
      [['c'], 1000, 50],
    ] as const) {
      const fresh = await db
        .selectFrom('items')
        .select('id')
        .where('kind', 'in', [...kinds])
        .where('size', '<', below)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      const templated = await templates.execute(
        byKinds(kinds),
        (slot) =>
          db
            .selectFrom('items')
            .select('id')
            .where(
              'kind',
              'in',
              kinds.map((_, i) => slot(`k${i}`)),
            )
            .where('size', '<', slot('below'))
            .orderBy('id', 'desc')
            .limit(slot('limit')),
        { k0: kinds[0], below, limit },
      );
      expect(templated).toEqual(fresh);
      expect(templated.length).toBeGreaterThan(0);
    }
  });

  it('builds a shape once and keeps constants that are not slots', async () => {
    const templates = new QueryTemplates(db);
    let builds = 0;
    const run = (min: number) =>
      templates.execute(
        'fixed-kind',
        (slot) => {
          builds += 1;
          return db
            .selectFrom('items')
            .select('id')
            .where('kind', '=', 'a')
            .where('size', '>=', slot('min'))
            .orderBy('id');
        },
        { min },
      );
    expect((await run(250)).map((r) => r.id)).toEqual([28]);
    expect((await run(0)).map((r) => r.id)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
    expect(builds).toBe(1);
  });

  it('refuses to run when a slot has no value', () => {
    const templates = new QueryTemplates(db);
    expect(() =>
      templates.compile('k', (slot) => db.selectFrom('items').select('id').where('id', '=', slot('id')), {}),
    ).toThrow(/no value for slot "id"/);
  });

  it('drops the least recently used shape beyond its bound', () => {
    const templates = new QueryTemplates(db, 2);
    let builds = 0;
    const compile = (key: string) =>
      templates.compile(
        key,
        (slot) => {
          builds += 1;
          return db.selectFrom('items').select('id').where('id', '=', slot('id'));
        },
        { id: 1 },
      );
    compile('a');
    compile('b');
    compile('a');
    compile('c'); // evicts b
    expect(builds).toBe(3);
    compile('a');
    expect(builds).toBe(3);
    compile('b');
    expect(builds).toBe(4);
  });
});
