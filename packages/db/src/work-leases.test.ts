import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { migrateToLatest } from './migrate-to-latest.js';
import { openDatabase } from './open-database.js';
import { describeEachDatabase, describePostgresOnly } from './testing.js';
import { startWorkLeases, workLeaseMigration, type WorkLeaseChange, type WorkLeases } from './work-leases.js';

const items = Array.from({ length: 20 }, (_, index) => `node-${index}`);
const listItems = () => Promise.resolve(items);
// Short leases so the suite takes seconds; the ratio is the default one.
const timing = { ttlMs: 900, heartbeatMs: 150 } as const;

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** True when the instances' owned sets are disjoint and together hold every item. */
function partitioned(...leases: WorkLeases[]): boolean {
  const seen = new Set<string>();
  for (const lease of leases) {
    for (const item of lease.owned) {
      if (seen.has(item)) return false;
      seen.add(item);
    }
  }
  return items.every((item) => seen.has(item));
}

describeEachDatabase('work leases', (getDb) => {
  beforeAll(async () => {
    await migrateToLatest(getDb(), {
      migrations: { '0001_leases': workLeaseMigration('widgets') },
      tableName: 'widgets_migrations',
    });
  });

  it('gives one instance every item and reports what it gained and lost', async () => {
    const changes: WorkLeaseChange[] = [];
    let listed = items.slice(0, 3);
    const leases = await startWorkLeases({
      database: getDb(),
      tablePrefix: 'widgets',
      instanceId: 'solo',
      listItems: () => Promise.resolve(listed),
      onChange: (change) => void changes.push(change),
      ...timing,
    });
    expect([...leases.owned].sort()).toEqual(['node-0', 'node-1', 'node-2']);
    listed = ['node-1', 'node-2', 'node-3'];
    await leases.refresh();
    expect(leases.owns('node-0')).toBe(false);
    expect(leases.owns('node-3')).toBe(true);
    expect(changes.at(-1)).toMatchObject({ gained: ['node-3'], lost: ['node-0'] });
    expect((await leases.instances()).map((i) => [i.instanceId, i.leases])).toEqual([['solo', 3]]);
    await leases.stop();
    expect(leases.owned.size).toBe(0);
    expect(changes.at(-1)?.lost.length).toBe(3);
  });
});

describePostgresOnly('work leases among instances', (getDb, url) => {
  let running: WorkLeases[] = [];
  const others: Database[] = [];
  beforeAll(async () => {
    await migrateToLatest(getDb(), {
      migrations: { '0001_leases': workLeaseMigration('gadgets') },
      tableName: 'gadgets_migrations',
    });
  });
  afterAll(async () => {
    await Promise.all(running.map((lease) => lease.stop().catch(() => {})));
    await Promise.all(others.map((database) => database.close()));
  });

  const start = (instanceId: string, database: Database = getDb()) =>
    startWorkLeases({ database, tablePrefix: 'gadgets', instanceId, listItems, ...timing }).then((lease) => {
      running.push(lease);
      return lease;
    });

  it('splits the items between instances and hands them over on stop', async () => {
    const a = await start('instance-a');
    const b = await start('instance-b');
    const c = await start('instance-c');
    await waitFor(() => partitioned(a, b, c) && a.owned.size > 0 && b.owned.size > 0 && c.owned.size > 0, 'a split');
    const counts = (await a.instances()).map((i) => i.leases);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(items.length);
    await b.stop();
    running = running.filter((lease) => lease !== b);
    await waitFor(() => partitioned(a, c), 'the stopped instance’s items to move');
    expect(b.owned.size).toBe(0);
  });

  it('takes over the items of an instance that lost its database, which drops them first', async () => {
    const lost = openDatabase({ url, schema: getDb().schema ?? '', maxConnections: 2 });
    others.push(lost);
    const survivor = running.find((lease) => lease.instanceId === 'instance-a') ?? (await start('instance-a'));
    const doomed = await start('instance-d', lost);
    await waitFor(() => doomed.owned.size > 0 && partitioned(...running), 'the new instance to get its share');
    const taken = [...doomed.owned];
    // The fault: every connection of the doomed instance closes; its cycles now fail.
    await lost.close();
    await waitFor(() => doomed.owned.size === 0, 'self-fencing of the instance without a database');
    await waitFor(
      () => taken.every((item) => survivor.owns(item) || running.some((l) => l !== doomed && l.owns(item))),
      'takeover',
    );
    const alive = running.filter((lease) => lease !== doomed);
    expect(partitioned(...alive)).toBe(true);
  });
});
