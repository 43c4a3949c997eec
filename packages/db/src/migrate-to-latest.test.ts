import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { AnyTables } from './database.js';
import { migrateToLatest, type MigrationSet } from './migrate-to-latest.js';
import { DatabaseError } from './errors.js';
import { describeEachDatabase } from './testing.js';

// Migrations see the database as it is at their point in history, so they are untyped (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/** The tables the suite's queries touch, after the widget migrations ran. */
interface WidgetTables {
  widgets: { id: number; name: string | null; colour: string | null };
  widgets_migrations: { name: string; timestamp: string };
}

const widgets: MigrationSet = {
  '0001_create_widgets': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('widgets')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text')
        .execute();
    },
  },
  '0002_add_colour': {
    async up(db: AnyDb) {
      await db.schema.alterTable('widgets').addColumn('colour', 'text').execute();
    },
  },
};

describeEachDatabase<WidgetTables>('migrateToLatest', (getDb) => {
  it('applies every migration in name order and reports each as applied', async () => {
    const report = await migrateToLatest(getDb(), { migrations: widgets, tableName: 'widgets_migrations' });
    expect(report.applied).toEqual(['0001_create_widgets', '0002_add_colour']);
    expect(report.outcomes.every((o) => o.status === 'applied')).toBe(true);
    await getDb().db.insertInto('widgets').values({ id: 1, name: 'a', colour: 'red' }).execute();
  });

  it('applies nothing the second time', async () => {
    const report = await migrateToLatest(getDb(), { migrations: widgets, tableName: 'widgets_migrations' });
    expect(report.applied).toEqual([]);
  });

  it('keeps separate bookkeeping per table name so services share one database', async () => {
    const gadgets: MigrationSet = {
      '0001_create_gadgets': {
        async up(db: AnyDb) {
          await db.schema
            .createTable('gadgets')
            .addColumn('id', 'integer', (c) => c.primaryKey())
            .execute();
        },
      },
    };
    const report = await migrateToLatest(getDb(), { migrations: gadgets, tableName: 'gadgets_migrations' });
    expect(report.applied).toEqual(['0001_create_gadgets']);
    const rows = await getDb().db.selectFrom('widgets_migrations').select('name').execute();
    expect(rows.map((r) => r.name)).toEqual(['0001_create_widgets', '0002_add_colour']);
  });

  it('throws DB_ERR_MIGRATION_FAILED naming the failing migration, with per-migration outcomes', async () => {
    const broken: MigrationSet = {
      '0001_ok': {
        async up(db: AnyDb) {
          await db.schema.createTable('ok_table').addColumn('id', 'integer').execute();
        },
      },
      '0002_broken': {
        async up(db: AnyDb) {
          await sql`select * from table_that_does_not_exist`.execute(db);
        },
      },
    };
    let caught: unknown;
    try {
      await migrateToLatest(getDb(), { migrations: broken, tableName: 'broken_migrations' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatabaseError);
    const error = caught as DatabaseError;
    expect(error.code).toBe('DB_ERR_MIGRATION_FAILED');
    expect(error.details.failed).toBe('0002_broken');
    expect(error.details.outcomes).toEqual([
      { name: '0001_ok', status: 'applied' },
      { name: '0002_broken', status: 'failed' },
    ]);
  });

  it('serves a database a newer release migrated further, naming the newer migrations', async () => {
    const next: MigrationSet = {
      ...widgets,
      '0003_add_size': {
        async up(db: AnyDb) {
          await db.schema.alterTable('widgets').addColumn('size', 'integer').execute();
        },
      },
    };
    const upgraded = await migrateToLatest(getDb(), { migrations: next, tableName: 'widgets_migrations' });
    expect(upgraded).toMatchObject({ applied: ['0003_add_size'], newerInDatabase: [] });
    // The previous release starts on the upgraded database: it knows 0001 and 0002 only.
    const previous = await migrateToLatest(getDb(), { migrations: widgets, tableName: 'widgets_migrations' });
    expect(previous).toEqual({ outcomes: [], applied: [], newerInDatabase: ['0003_add_size'] });
    // Its queries still work: the newer migration only added a column.
    await getDb().db.insertInto('widgets').values({ id: 2, name: 'b', colour: 'blue' }).execute();
  });

  it('still refuses a database holding an unknown migration older than its own newest', async () => {
    const noop = { up: () => Promise.resolve() };
    await migrateToLatest(getDb(), { migrations: { '0001_a': noop, '0002_b': noop }, tableName: 'history_migrations' });
    const other = migrateToLatest(getDb(), {
      migrations: { '0001_a': noop, '0003_c': noop },
      tableName: 'history_migrations',
    });
    await expect(other).rejects.toThrow(/previously executed migration 0002_b is missing/);
    await expect(other).rejects.toMatchObject({ code: 'DB_ERR_MIGRATION_FAILED' });
  });
});
