import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { POSTGRES_UNAVAILABLE, describeEachDatabase, planPostgresSuite } from './testing.js';

describe('planPostgresSuite', () => {
  it('runs against the URL when TRIAD_TEST_DATABASE_URL is set', () => {
    expect(planPostgresSuite({ TRIAD_TEST_DATABASE_URL: 'postgres://x/y' })).toEqual({
      kind: 'run',
      url: 'postgres://x/y',
    });
  });

  it('skips with an install hint when the URL is unset', () => {
    const plan = planPostgresSuite({});
    expect(plan.kind).toBe('skip');
    expect(POSTGRES_UNAVAILABLE).toContain('install postgresql and set TRIAD_TEST_DATABASE_URL');
  });

  it('fails instead of skipping when TRIAD_REQUIRE_SERVICES=1 and the URL is unset', () => {
    expect(planPostgresSuite({ TRIAD_REQUIRE_SERVICES: '1', TRIAD_TEST_DATABASE_URL: ' ' })).toEqual({
      kind: 'fail',
      reason: POSTGRES_UNAVAILABLE,
    });
  });
});

describeEachDatabase('describeEachDatabase', (getDb) => {
  it('gives each suite an empty database of its own', async () => {
    const database = getDb();
    // PostgreSQL introspection sees the search path: the suite's schema, then `public`.
    const ownTables = async () =>
      (await database.db.introspection.getTables())
        .filter((t) => database.dialect !== 'postgres' || t.schema === database.schema)
        .map((t) => t.name);
    expect(await ownTables()).toEqual([]);
    await database.db.schema.createTable('mine').addColumn('id', 'integer').execute();
    expect(await ownTables()).toEqual(['mine']);
  });

  it('puts PostgreSQL suites in their own schema', async () => {
    const database = getDb();
    if (database.dialect !== 'postgres') {
      expect(database.schema).toBeUndefined();
      return;
    }
    const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
    expect(result.rows[0]?.schema).toBe(database.schema);
    expect(database.schema).toMatch(/^test_/);
  });
});
