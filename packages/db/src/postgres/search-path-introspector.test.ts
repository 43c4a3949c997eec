import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from '../open-database.js';
import { describeEachDatabase } from '../testing.js';

describeEachDatabase('introspection', (getDb) => {
  it('lists the columns of its own tables with their facts', async () => {
    const database = getDb();
    await database.db.schema
      .createTable('gadgets')
      .addColumn('id', database.dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.defaultTo('none'))
      .execute();
    const table = (await database.db.introspection.getTables()).find((t) => t.name === 'gadgets');
    expect(table?.isView).toBe(false);
    expect(table?.columns.map((c) => [c.name, c.isNullable, c.hasDefaultValue])).toEqual([
      ['id', database.dialect === 'sqlite', database.dialect === 'postgres'],
      ['name', false, false],
      ['note', true, true],
    ]);
    if (database.dialect === 'postgres') {
      expect(table?.schema).toBe(database.schema);
      expect(table?.columns[0]?.isAutoIncrementing).toBe(true);
    }
  });

  it("leaves other schemas out, even while they are created and dropped (PostgreSQL's search path)", async () => {
    const database = getDb();
    await database.db.schema.createTable('own_table').addColumn('id', 'integer').execute();
    if (database.dialect !== 'postgres') {
      expect((await database.db.introspection.getTables()).map((t) => t.name)).toContain('own_table');
      return;
    }
    // A second connection to the same database, in no schema of its own, churns other schemas the
    // way parallel suites or other service instances do.
    const url = process.env.TRIAD_TEST_DATABASE_URL ?? '';
    const other = openDatabase<Record<string, never>>({ url, maxConnections: 1 });
    const stranger = `stranger_${randomBytes(4).toString('hex')}`;
    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning && round < 200; round++) {
        const name = `${stranger}_${round}`;
        await sql`create schema ${sql.id(name)}`.execute(other.db);
        await sql`create table ${sql.id(name)}.other_table (id integer)`.execute(other.db);
        await sql`drop schema ${sql.id(name)} cascade`.execute(other.db);
      }
    })();
    try {
      for (let i = 0; i < 40; i++) {
        const names = (await database.db.introspection.getTables()).map((t) => `${t.schema}.${t.name}`);
        expect(names).toContain(`${database.schema}.own_table`);
        expect(names.some((n) => n.startsWith(stranger))).toBe(false);
      }
    } finally {
      churning = false;
      await churn;
      await other.close();
    }
  });
});
