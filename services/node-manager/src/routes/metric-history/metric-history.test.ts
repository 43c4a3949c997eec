import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { MetricHistory } from '../../monitoring/metric-history.js';
import { MetricHistoryRepository } from '../../repositories/metric-history-repository.js';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';
import { ADMIN, useTestApp } from '../../test-support/node-manager-test-app.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A minute boundary, so minute buckets are easy to name. */
const T0 = 1_700_000_040_000;

interface HistoryReply {
  node_id: string;
  name: string;
  points: [number, number][];
}

describeEachDatabase<NodeManagerDatabase>('node-manager metric history', (getDb) => {
  let now = T0;
  const t = useTestApp(getDb, { now: () => now });

  async function get(url: string) {
    return t.app.inject({ method: 'GET', url, headers: ADMIN });
  }
  async function addNode(name: string): Promise<string> {
    return (await t.core.topology.addNode(name, 'cookie')).id;
  }
  const count = (value: number) => [{ name: 'erlang_vm_process_count', value }];

  it('answers the raw samples of a range within the raw retention, oldest first', async () => {
    now = T0;
    const id = await addNode('raw@h');
    await t.core.metricHistory.record(id, T0 - 30_000, count(40));
    await t.core.metricHistory.record(id, T0 - 15_000, [
      { name: 'erlang_vm_process_count', value: 41 },
      { name: 'erlang_vm_memory_bytes_total', labels: { kind: 'system' }, value: 9e6 },
    ]);
    await t.core.metricHistory.record(id, T0, count(42));
    await t.core.metricHistory.record(id, T0 - HOUR - 1, count(1));

    const reply = await get(`/api/metrics/node/${id}?name=erlang_vm_process_count&from=${T0 - 30_000}&to=${T0}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.json<HistoryReply>()).toEqual({
      node_id: id,
      name: 'erlang_vm_process_count',
      points: [
        [T0 - 30_000, 40],
        [T0 - 15_000, 41],
        [T0, 42],
      ],
    });
    // Without from and to: the last hour.
    expect((await get(`/api/metrics/node/${id}?name=erlang_vm_process_count`)).json<HistoryReply>().points).toEqual([
      [T0 - 30_000, 40],
      [T0 - 15_000, 41],
      [T0, 42],
    ]);
    const memory = encodeURIComponent('erlang_vm_memory_bytes_total{kind="system"}');
    expect((await get(`/api/metrics/node/${id}?name=${memory}`)).json<HistoryReply>().points).toEqual([
      [T0 - 15_000, 9e6],
    ]);
  });

  it('answers per-minute averages for a range that starts before the raw retention', async () => {
    now = T0;
    const id = await addNode('minute@h');
    const minute = T0 - 2 * DAY;
    for (const [offset, value] of [
      [0, 10],
      [15_000, 20],
      [30_000, 30],
      [45_000, 40],
      [60_000, 100],
    ] as const)
      await t.core.metricHistory.record(id, minute + offset, count(value));

    const reply = await get(`/api/metrics/node/${id}?name=erlang_vm_process_count&from=${T0 - 3 * DAY}&to=${T0}`);
    expect(reply.json<HistoryReply>().points).toEqual([
      [minute, 25],
      [minute + 60_000, 100],
    ]);
  });

  it('lists every series name once, sorted', async () => {
    const id = await addNode('names@h');
    await t.core.metricHistory.record(id, T0, [
      { name: 'erlang_vm_port_count', value: 3 },
      { name: 'erlang_vm_atom_count', value: 9000 },
    ]);
    const { names } = (await get('/api/metrics/names')).json<{ names: string[] }>();
    expect(names).toEqual([...new Set(names)].sort());
    expect(names).toEqual(expect.arrayContaining(['erlang_vm_atom_count', 'erlang_vm_port_count']));
  });

  it('answers node_not_found, metric_not_found and invalid_request in the spec error shape', async () => {
    const id = await addNode('errors@h');
    await t.core.metricHistory.record(id, T0, count(5));
    const unknownNode = await get('/api/metrics/node/nope?name=erlang_vm_process_count');
    expect([unknownNode.statusCode, unknownNode.json()]).toEqual([404, { error: 'node_not_found' }]);
    const unknownMetric = await get(`/api/metrics/node/${id}?name=erlang_vm_no_such`);
    expect([unknownMetric.statusCode, unknownMetric.json()]).toEqual([404, { error: 'metric_not_found' }]);
    const backwards = await get(`/api/metrics/node/${id}?name=erlang_vm_process_count&from=${T0}&to=${T0 - 1}`);
    expect([backwards.statusCode, backwards.json()]).toEqual([400, { error: 'invalid_request' }]);
    const noName = await get(`/api/metrics/node/${id}`);
    expect([noName.statusCode, noName.json()]).toEqual([400, { error: 'invalid_request' }]);
    expect((await t.app.inject({ method: 'GET', url: '/api/metrics/names' })).statusCode).toBe(401);
  });

  it('prunes raw samples past the raw retention and averages past the minute retention', async () => {
    now = T0;
    const id = await addNode('prune@h');
    await t.core.metricHistory.record(id, T0 - 40 * DAY, count(1));
    await t.core.metricHistory.record(id, T0 - 25 * HOUR, count(2));
    await t.core.metricHistory.record(id, T0 - HOUR, count(3));
    await t.core.metricHistory.prune(T0);
    const store = new MetricHistoryRepository(getDb());
    const name = 'erlang_vm_process_count';
    expect(await store.read(id, name, 0, T0, 'raw')).toEqual([[T0 - HOUR, 3]]);
    expect(await store.read(id, name, 0, T0, 'minute')).toEqual([
      [T0 - 25 * HOUR, 2],
      [T0 - HOUR, 3],
    ]);
  });

  it('keeps what was recorded for a new service process on the same database', async () => {
    now = T0;
    const id = await addNode('restart@h');
    await t.core.metricHistory.record(id, T0 - 1000, count(77));
    const restarted = new MetricHistory(
      new MetricHistoryRepository(getDb()),
      { rawMs: DAY, minuteMs: 30 * DAY },
      () => T0,
    );
    expect(await restarted.read(id, 'erlang_vm_process_count', T0 - HOUR, T0)).toEqual({
      resolution: 'raw',
      points: [[T0 - 1000, 77]],
    });
    // New series of the restarted process get ids of their own.
    await restarted.record(id, T0, [{ name: 'erlang_vm_ets_tables', value: 20 }]);
    expect(await t.core.metricHistory.read(id, 'erlang_vm_ets_tables', T0 - HOUR, T0)).toEqual({
      resolution: 'raw',
      points: [[T0, 20]],
    });
    expect(await t.core.metricHistory.read(id, 'erlang_vm_process_count', T0 - HOUR, T0)).toEqual({
      resolution: 'raw',
      points: [[T0 - 1000, 77]],
    });
  });
});
