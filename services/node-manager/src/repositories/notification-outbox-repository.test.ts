import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { NotifiedAlarm } from '../model/notification-records.js';
import { useTestApp } from '../test-support/node-manager-test-app.js';
import type { NodeManagerDatabase } from './node-manager-tables.js';
import { NotificationOutboxRepository } from './notification-outbox-repository.js';

const alarm = (eventUs: number): NotifiedAlarm => ({
  action: 'raised',
  alarmId: 'a',
  eventUs,
  nodeId: 'n',
  nodeName: 'n@h',
  rawSrc: 'src',
  severity: 'major',
  probableCause: '',
  description: '',
  additionalInformation: '',
  tags: [],
  ackUser: null,
  time: 0,
});

describeEachDatabase<NodeManagerDatabase>('node-manager notification outbox', (getDb) => {
  // Migrates and empties the tables before each test.
  useTestApp(getDb);

  it('queues one notification per channel and alarm change', async () => {
    const outbox = new NotificationOutboxRepository(getDb());
    expect(await outbox.enqueue(['c1', 'c2'], alarm(1), 1000)).toBe(2);
    expect(await outbox.enqueue(['c1', 'c3'], alarm(1), 1000)).toBe(1);
    expect(await outbox.enqueue(['c1'], { ...alarm(1), action: 'cleared' }, 1000)).toBe(1);
    expect(await outbox.deliveries({ limit: 10 })).toHaveLength(4);
  });

  it('never hands one notification to two instances claiming at the same time', async () => {
    const outbox = new NotificationOutboxRepository(getDb());
    for (let i = 0; i < 10; i++)
      await outbox.enqueue(
        Array.from({ length: 10 }, (_, c) => `c${c}`),
        alarm(i + 1),
        1000,
      );
    const claimed: string[][] = [];
    const instance = async (name: string) => {
      // Each instance is its own repository; on PostgreSQL each claim runs on its own pooled connection.
      const own = new NotificationOutboxRepository(getDb());
      for (;;) {
        const rows = await own.claimDue(name, 2000, 5, 60_000);
        if (rows.length === 0) return;
        claimed.push(rows.map((row) => row.id));
      }
    };
    await Promise.all(['a', 'b', 'c', 'd'].map(instance));
    const ids = claimed.flat();
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
  });

  it('lets another instance take over a claim whose holder died, and ignores the late holder', async () => {
    const outbox = new NotificationOutboxRepository(getDb());
    await outbox.enqueue(['c1'], alarm(7), 1000);
    const [first] = await outbox.claimDue('a', 1000, 10, 50);
    expect(await outbox.claimDue('b', 1020, 10, 50)).toEqual([]);
    const [taken] = await outbox.claimDue('b', 1100, 10, 50);
    expect(taken?.id).toBe(first?.id);
    const attempt = (instance: string, ok: boolean) =>
      outbox.finish(
        instance,
        {
          notificationId: first!.id,
          attempt: 1,
          startedAt: 1100,
          durationMs: 5,
          ok,
          statusCode: ok ? 200 : 500,
          reply: null,
          error: null,
        },
        { status: ok ? 'delivered' : 'pending', nextAttemptAt: 5000 },
      );
    await attempt('b', true);
    await attempt('a', false);
    const [delivery] = await outbox.deliveries({ limit: 10 });
    expect(delivery!.notification.status).toBe('delivered');
    // Both attempts are on record: the late one happened, it just does not decide the state.
    expect(delivery!.attempts.map((a) => a.ok).sort()).toEqual([false, true]);
  });
});
