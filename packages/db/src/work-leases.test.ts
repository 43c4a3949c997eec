import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from './database.js';
import { migrateToLatest } from './migrate-to-latest.js';
import { openDatabase } from './open-database.js';
import { describeEachDatabase, describePostgresOnly } from './testing.js';
import { startWorkLeases, workLeaseMigration, type WorkLeaseChange, type WorkLeases } from './work-leases.js';

const items = Array.from({ length: 20 }, (_, index) => `node-${index}`);
const listItems = () => Promise.resolve(items);
// Short leases so the suite takes seconds; the ratio is the default one. Not shorter: on a loaded
// machine (CI runs suites side by side on two cores) the event loop can stall for most of a second,
// and a lease of 900 ms then ran out while its holder was still alive.
const timing = { ttlMs: 2400, heartbeatMs: 400 } as const;

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

/** Counts the statements run through a Kysely instance and the rows they returned or changed. */
class StatementCounter implements KyselyPlugin {
  statements = 0;
  rows = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    this.statements += 1;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.rows += Math.max(args.result.rows.length, Number(args.result.numAffectedRows ?? 0));
    return Promise.resolve(args.result);
  }
}

// No cycle runs during a test with these: what happens is what claim and release did.
const slow = { ttlMs: 600_000, heartbeatMs: 200_000 } as const;

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

  it('claims and releases one created item with one statement and no listing, however many items exist', async () => {
    const many = Array.from({ length: 500 }, (_, index) => `many-${index}`);
    let listings = 0;
    const counter = new StatementCounter();
    const changes: WorkLeaseChange[] = [];
    const leases = await startWorkLeases({
      database: { ...getDb(), db: getDb().db.withPlugin(counter) },
      tablePrefix: 'widgets',
      instanceId: 'counted',
      listItems: () => {
        listings += 1;
        return Promise.resolve(many);
      },
      onChange: (change) => void changes.push(change),
      ...slow,
    });
    expect(leases.owned.size).toBe(500);
    const [listed, statements, rows] = [listings, counter.statements, counter.rows];
    expect(await leases.claim('created')).toBe(true);
    expect(leases.owns('created')).toBe(true);
    expect(changes.at(-1)).toMatchObject({ gained: ['created'], lost: [] });
    expect(listings).toBe(listed);
    // PostgreSQL: one INSERT of one lease row; SQLite (one instance) keeps no lease rows at all.
    expect(counter.statements - statements).toBeLessThanOrEqual(1);
    expect(counter.rows - rows).toBeLessThanOrEqual(1);
    await leases.release('created');
    expect(leases.owns('created')).toBe(false);
    expect(changes.at(-1)).toMatchObject({ gained: [], lost: ['created'] });
    expect(listings).toBe(listed);
    expect(counter.statements - statements).toBeLessThanOrEqual(2);
    expect(counter.rows - rows).toBeLessThanOrEqual(2);
    await leases.stop();
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

  it('gives a created item to its wanted owner at once, spread over the instances, without a cycle', async () => {
    const spread = Array.from({ length: 40 }, (_, index) => `created-${index}`);
    let listed = items;
    const startSlow = (instanceId: string) =>
      startWorkLeases({
        database: getDb(),
        tablePrefix: 'gizmos',
        instanceId,
        listItems: () => Promise.resolve(listed),
        ...slow,
      });
    await migrateToLatest(getDb(), {
      migrations: { '0001_leases': workLeaseMigration('gizmos') },
      tableName: 'gizmos_migrations',
    });
    const first = await startSlow('slow-a');
    const second = await startSlow('slow-b');
    // The first saw only itself live at its start: one cycle (as its periodic one would) to see both.
    await first.refresh();
    await second.refresh();
    try {
      listed = [...items, ...spread];
      for (const item of spread) {
        // Each instance hears of each create (its own through the request, the other's on the bus).
        const claims = await Promise.all([first.claim(item), second.claim(item)]);
        expect(claims.filter(Boolean)).toHaveLength(1);
      }
      const firstShare = spread.filter((item) => first.owns(item)).length;
      const secondShare = spread.filter((item) => second.owns(item)).length;
      expect(firstShare + secondShare).toBe(spread.length);
      expect(firstShare).toBeGreaterThan(5);
      expect(secondShare).toBeGreaterThan(5);
      const leased = await sql<{ item_id: string; owner: string }>`
        select item_id, owner from gizmos_work_leases where item_id like 'created-%'`.execute(getDb().db);
      expect(leased.rows).toHaveLength(spread.length);
      for (const { item_id: item, owner } of leased.rows)
        expect((owner === 'slow-a' ? first : second).owns(item)).toBe(true);
      // The next cycles keep the split claim made.
      await first.refresh();
      await second.refresh();
      expect(spread.filter((item) => first.owns(item)).length).toBe(firstShare);
      expect(spread.filter((item) => second.owns(item)).length).toBe(secondShare);
    } finally {
      await first.stop();
      await second.stop();
    }
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
