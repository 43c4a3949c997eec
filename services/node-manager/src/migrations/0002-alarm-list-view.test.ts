import { expect, it } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { createNodeManager } from './0001-create-node-manager.js';
import { NODE_MANAGER_MIGRATION_TABLE, nodeManagerMigrations } from './index.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';

describeEachDatabase<NodeManagerDatabase>('node-manager migration 0002 (alarm list view)', (getDb) => {
  it('remembers the custom tags stored alarms already carry, once each, and adds the list_json column', async () => {
    const database = getDb();
    const options = { tableName: NODE_MANAGER_MIGRATION_TABLE };
    await migrateToLatest(database, { ...options, migrations: { '0001_create_node_manager': createNodeManager } });
    await database.db
      .insertInto('nm_alarm_tags')
      .values([
        { event_us: 1, tag: 'op' },
        { event_us: 1, tag: 'storage' },
        { event_us: 2, tag: 'storage' },
        { event_us: 2, tag: 'Network' },
      ])
      .execute();
    await database.db.insertInto('nm_custom_tags').values({ tag: 'Network' }).execute();

    // Up to 0002 only: later migrations are tested on their own.
    const upTo0002 = Object.fromEntries(
      Object.entries(nodeManagerMigrations).filter(([name]) => name <= '0002_alarm_list_view'),
    );
    const report = await migrateToLatest(database, { ...options, migrations: upTo0002 });

    expect(report.applied).toEqual(['0002_alarm_list_view']);
    const tags = await database.db.selectFrom('nm_custom_tags').select('tag').orderBy('tag').execute();
    expect(tags.map((r: { tag: string }) => r.tag).sort()).toEqual(['Network', 'storage']);
    const columns = (await database.db.introspection.getTables())
      .find((t) => t.name === 'nm_alarms')
      ?.columns.map((c) => c.name);
    expect(columns).toContain('list_json');
  });
});
