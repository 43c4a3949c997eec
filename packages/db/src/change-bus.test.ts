import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openChangeBus, type ChangeBus } from './change-bus.js';
import type { Database } from './database.js';
import { describeEachDatabase, describePostgresOnly } from './testing.js';

/**
 * Subscribes (resolving once listening) and gives a promise of the next `count` payloads, which
 * rejects after 5 s.
 */
async function collect(bus: ChangeBus, topic: string, count: number): Promise<{ payloads: Promise<string[]> }> {
  let resolve: (value: string[]) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const payloads = new Promise<string[]>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  const seen: string[] = [];
  const timer = setTimeout(() => reject(new Error(`only ${seen.length} of ${count} messages on ${topic}`)), 5_000);
  await bus.subscribe(topic, (payload) => {
    seen.push(payload);
    if (seen.length === count) {
      clearTimeout(timer);
      resolve(seen);
    }
  });
  return { payloads };
}

/** Two buses on the suite's database, opened before its tests and closed after. */
function twoBuses(getDb: () => Database): { first: ChangeBus; second: ChangeBus } {
  const buses = {} as { first: ChangeBus; second: ChangeBus };
  beforeAll(() => {
    buses.first = openChangeBus(getDb());
    buses.second = openChangeBus(getDb());
  });
  afterAll(async () => {
    await buses.first.close();
    await buses.second.close();
  });
  return buses;
}

describeEachDatabase('change bus', (getDb) => {
  const buses = twoBuses(getDb);
  const first = () => buses.first;
  const second = () => buses.second;

  it('delivers a message to every subscriber, the publishing bus included, in order', async () => {
    const received = await collect(getDb().dialect === 'postgres' ? second() : first(), 'nodes', 3);
    const own = await collect(first(), 'nodes', 3);
    for (const payload of ['a', 'b', '{"id":"é"}']) await first().publish('nodes', payload);
    expect(await received.payloads).toEqual(['a', 'b', '{"id":"é"}']);
    expect(await own.payloads).toEqual(['a', 'b', '{"id":"é"}']);
  });

  it('keeps topics apart and stops delivering after unsubscribe', async () => {
    const other: string[] = [];
    const unsubscribe = await first().subscribe('other', (payload) => other.push(payload));
    const mine = await collect(first(), 'mine', 1);
    await first().publish('mine', 'x');
    expect(await mine.payloads).toEqual(['x']);
    expect(other).toEqual([]);
    await unsubscribe();
    await first().publish('other', 'late');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other).toEqual([]);
  });

  it('refuses a bad topic and a payload over 7,900 bytes', async () => {
    await expect(first().publish('Bad Topic', 'x')).rejects.toThrow(RangeError);
    await expect(first().publish('big', 'x'.repeat(7_901))).rejects.toThrow(/7900|publish an id/);
    await expect(first().publish('big', 'é'.repeat(3_951))).rejects.toThrow(RangeError);
  });
});

describePostgresOnly('change bus on PostgreSQL', (getDb) => {
  const buses = twoBuses(getDb);
  const first = () => buses.first;
  const second = () => buses.second;

  it('sends a message published in a transaction only when it commits', async () => {
    const database = getDb();
    const received: string[] = [];
    await second().subscribe('tx', (payload) => received.push(payload));
    await database.db
      .transaction()
      .execute(async (trx) => {
        await first().publish('tx', 'rolled back', trx);
        throw new Error('roll back');
      })
      .catch(() => {});
    const committed = await collect(second(), 'tx', 1);
    await database.db.transaction().execute(async (trx) => {
      await first().publish('tx', 'committed', trx);
    });
    expect(await committed.payloads).toEqual(['committed']);
    expect(received).toEqual(['committed']);
  });

  it('listens again after its connection is killed and says so', async () => {
    const database = getDb();
    const bus = openChangeBus(database);
    let resyncs = 0;
    const payloads: string[] = [];
    await bus.subscribe(
      'again',
      (payload) => payloads.push(payload),
      () => (resyncs += 1),
    );
    // The fault is real: the server ends the listening session.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where query like 'LISTEN %' and pid <> pg_backend_pid()
              and backend_type = 'client backend'`.execute(database.db);
    const deadline = Date.now() + 5_000;
    while (resyncs === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resyncs).toBe(1);
    await first().publish('again', 'after');
    while (payloads.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(payloads).toEqual(['after']);
    await bus.close();
  });
});
