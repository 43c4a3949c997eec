import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HISTORY_SWEEP_ITEM } from '../devices/history-sweeper.js';
import { pingTemplate } from '../test-support/ping-template.js';
import {
  CLUSTER_WAIT as WAIT,
  describeOnPostgres,
  fetchJson as json,
  startTemplatesCluster,
  type TemplatesCluster,
} from '../test-support/templates-cluster.js';
import {
  collectedDevices,
  collectionSplit,
  openEventStream,
  type TemplatesProcess,
} from '../test-support/templates-process.js';

// Three template services as child processes on loopback ports, on one PostgreSQL database of
// their own, sharing ICMP devices that ping 127.0.0.1. Short leases (6 s, beat 2 s) so a
// takeover after SIGKILL comes within seconds.

const DEVICES = 12;
const TEST_BUDGET_MS = 180_000;

interface ValuesReply {
  values: { datapointId: string; value: unknown; quality: string; timestamp: number }[];
}
interface EventsReply {
  events: { type: string; reason?: string; state?: string }[];
}

describeOnPostgres('several template services on one PostgreSQL database', (postgresUrl) => {
  let cluster: TemplatesCluster;
  let services: readonly TemplatesProcess[] = [];
  const ids: string[] = [];

  const send = (url: string, method: string, body: unknown) => json<{ id: string }>(url, method, body);
  const device = (name: string) => ({
    name,
    templateId: 'Ping Check',
    templateVersion: '1.0.0',
    variables: { ICMP_IPAddress: '127.0.0.1' },
    drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 2000 } },
  });
  const events = async (service: TemplatesProcess, id: string, type: string) =>
    (await json<EventsReply>(`${service.url}/devices/${id}/events?limit=1000`)).events.filter((e) => e.type === type);
  const alive = () => cluster.alive();
  const split = (expected: readonly string[]) => collectionSplit(alive(), expected);
  const owned = async () =>
    Promise.all(alive().map(async (s) => (await json<{ devicesOwned: number }>(`${s.url}/healthz`)).devicesOwned));
  const ownerOf = (id: string) => {
    const owner = alive().find((s) => collectedDevices(s).has(id));
    if (owner === undefined) throw new Error(`nobody collects ${id}`);
    return owner;
  };

  beforeAll(async () => {
    cluster = await startTemplatesCluster(postgresUrl, 3);
    services = cluster.services;
    for (const [version, threshold] of [
      ['1.0.0', 0],
      ['1.0.1', 1e9],
    ] as const)
      await send(`${services[0]!.url}/templates`, 'POST', pingTemplate(version, threshold));
    // Created through all three instances in turn.
    for (let n = 0; n < DEVICES; n++)
      ids.push((await send(`${services[n % 3]!.url}/devices`, 'POST', device(`loopback-${n}`))).id);
  }, 360_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it(
    'splits the devices among the instances, each collected by exactly one, and raises each alarm once',
    async () => {
      // Named by TRIAD_TEMPLATES_INSTANCE_ID.
      expect(services.map((s) => s.instance)).toEqual(['templates-0', 'templates-1', 'templates-2']);
      const liveLeases = async () =>
        (
          await sql<{ item_id: string; owner: string }>`
      select item_id, owner from templates_work_leases where expires_at > now()`.execute(cluster.database.db)
        ).rows;
      const leasedBy = (leases: readonly { item_id: string; owner: string }[], instance: string) =>
        leases
          .filter((l) => l.owner === instance && l.item_id !== HISTORY_SWEEP_ITEM)
          .map((l) => l.item_id)
          .sort();
      // Leases are claimed before an instance logs what it collects, and the devices may still move
      // while the instances join one after another; so wait for the moment when what each instance
      // collects (its log) is what it holds (the lease table), and check that moment. The history
      // sweep is one more item, held by exactly one live instance: creates claim only their devices,
      // and the sweep moves to its wanted owner on the periodic cycles (2 s beats).
      const settled = async () => {
        const sets = split(ids);
        if (sets === undefined) return undefined;
        const leases = await liveLeases();
        const agree = services.every(
          (s, index) => JSON.stringify(leasedBy(leases, s.instance)) === JSON.stringify([...sets[index]!].sort()),
        );
        const sweeps = leases.filter((l) => l.item_id === HISTORY_SWEEP_ITEM).length;
        return agree && sweeps === 1 ? { sets, leases } : undefined;
      };
      let snapshot: Awaited<ReturnType<typeof settled>>;
      await expect.poll(async () => (snapshot = await settled()), WAIT).toBeDefined();
      const { sets, leases } = snapshot!;
      expect(sets.filter((set) => set.size > 0).length).toBeGreaterThanOrEqual(2);
      await expect.poll(owned, WAIT).toEqual(sets.map((set) => set.size));
      const sweep = leases.filter((l) => l.item_id === HISTORY_SWEEP_ITEM);
      expect(sweep).toHaveLength(1);
      expect(services.map((s) => s.instance)).toContain(sweep[0]!.owner);
      for (const [index, service] of services.entries())
        expect(leasedBy(leases, service.instance)).toEqual([...sets[index]!].sort());
      // Every instance answers for every device: its alarm, raised once, and one start of its collection.
      for (const [n, id] of ids.entries()) {
        const service = services[(n + 1) % 3]!;
        await expect
          .poll(async () => (await json<{ alarms: unknown[] }>(`${service.url}/devices/${id}/alarms`)).alarms, WAIT)
          .toHaveLength(1);
      }
      for (const id of ids) {
        expect(await events(services[0]!, id, 'alarm-raised')).toHaveLength(1);
        expect((await events(services[0]!, id, 'state'))[0]).toMatchObject({ state: 'up' });
      }
    },
    TEST_BUDGET_MS,
  );

  it(
    'serves values, value streams and events of a device on an instance that does not collect it',
    async () => {
      const created = await send(`${services[0]!.url}/devices`, 'POST', device('watched'));
      await expect.poll(() => split([...ids, created.id]), WAIT).toBeDefined();
      const owner = ownerOf(created.id);
      const [other, third] = services.filter((s) => s !== owner);
      await expect
        .poll(async () => {
          const { values } = await json<ValuesReply>(`${other!.url}/devices/${created.id}/values`);
          return values.find((v) => v.datapointId === 'packetLoss');
        }, WAIT)
        .toMatchObject({ value: 0, quality: 'good' });
      const ownValues = await json<ValuesReply>(`${owner.url}/devices/${created.id}/values`);
      const otherValues = await json<ValuesReply>(`${other!.url}/devices/${created.id}/values`);
      expect(otherValues.values.map((v) => v.datapointId).sort()).toEqual(
        ownValues.values.map((v) => v.datapointId).sort(),
      );

      const stream = await openEventStream(`${other!.url}/devices/${created.id}/stream`);
      try {
        const valueEvents = () =>
          [...stream.text().matchAll(/^event: value\ndata: (.*)$/gm)].map(
            (m) => JSON.parse(m[1]!) as { timestamp: number },
          );
        // The current values first (asked of the owner), then the owner's next readings.
        await expect.poll(() => valueEvents().length, WAIT).toBeGreaterThan(0);
        const first = Math.max(...valueEvents().map((v) => v.timestamp));
        await expect.poll(() => Math.max(...valueEvents().map((v) => v.timestamp)), WAIT).toBeGreaterThan(first);
        await expect
          .poll(
            async () => (await json<{ alarms: unknown[] }>(`${third!.url}/devices/${created.id}/alarms`)).alarms,
            WAIT,
          )
          .toHaveLength(1);
        // A change through the third instance restarts the collection on the owner; its clear reaches the stream.
        await send(`${third!.url}/devices/${created.id}`, 'PATCH', { templateVersion: '1.0.1' });
        await expect
          .poll(() => stream.text(), WAIT)
          .toMatch(/^event: alarm-cleared\ndata: .*not-raised-after-restart/m);
      } finally {
        stream.close();
      }
      // Deleted through an instance that does not collect it: the owner stops.
      expect((await fetch(`${other!.url}/devices/${created.id}`, { method: 'DELETE' })).status).toBe(204);
      await expect.poll(() => split(ids), WAIT).toBeDefined();
    },
    TEST_BUDGET_MS,
  );

  it(
    'takes over the devices of an instance killed with SIGKILL, neither losing nor repeating an alarm',
    async () => {
      const before = split(ids)!;
      const victimIndex = before.indexOf(before.reduce((a, b) => (b.size > a.size ? b : a)));
      const victim = services[victimIndex]!;
      const moved = [...before[victimIndex]!];
      const starts = new Map<string, number>();
      for (const id of moved) starts.set(id, (await events(services[0]!, id, 'state')).length);
      victim.child.kill('SIGKILL');
      expect(await victim.exited).toBe('SIGKILL');
      const killedAt = Date.now();

      await expect.poll(() => split(ids), WAIT).toBeDefined();
      const survivors = alive();
      expect(await owned()).toEqual(split(ids)!.map((set) => set.size));
      // Each moved device: started by its new owner (one more `state` event), then read twice more,
      // so the first reading's alarm writes are done.
      for (const id of moved) {
        const reader = survivors[0]!;
        await expect
          .poll(async () => (await events(reader, id, 'state')).length, WAIT)
          .toBeGreaterThan(starts.get(id)!);
        const rtt = async () =>
          (await json<ValuesReply>(`${reader.url}/devices/${id}/values`)).values.find(
            (v) => v.datapointId === 'roundTripTime',
          )?.timestamp ?? 0;
        await expect.poll(rtt, WAIT).toBeGreaterThan(killedAt);
        const first = await rtt();
        await expect.poll(rtt, WAIT).toBeGreaterThan(first);
      }
      for (const id of ids) {
        const alarms = await json<{ alarms: unknown[] }>(`${survivors[1]!.url}/devices/${id}/alarms`);
        expect(alarms.alarms, `alarms of ${id}`).toHaveLength(1);
        expect(await events(survivors[0]!, id, 'alarm-raised'), `raises of ${id}`).toHaveLength(1);
        expect(await events(survivors[0]!, id, 'alarm-cleared'), `clears of ${id}`).toHaveLength(0);
      }
    },
    TEST_BUDGET_MS,
  );
});
