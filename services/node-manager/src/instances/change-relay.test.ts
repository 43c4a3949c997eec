import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest, openChangeBus, type ChangeBus } from '@triad/db';
import { describePostgresOnly } from '@triad/db/testing';
import { loadNodeManagerConfig } from '../config.js';
import type { EventOrigin, NodeManagerEvent } from '../events/node-manager-events.js';
import { NODE_MANAGER_MIGRATION_TABLE, nodeManagerMigrations } from '../migrations/index.js';
import { createNodeManagerCore, type NodeManagerCore } from '../node-manager-core.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { waitFor } from '../connections/test-support/erl-node.js';
import { ChangeRelay, eventPayload } from './change-relay.js';

const LIMIT = 7_900;

it('sends an alarm too large for one message by its key, and cuts a long log entry under the limit', () => {
  const alarm = {
    type: 'alarm',
    action: 'raised',
    alarm: { text: 'x'.repeat(10_000) },
    eventUs: 42,
    tags: [],
  } as const;
  expect(JSON.parse(eventPayload('i1', alarm))).toEqual({ o: 'i1', ref: { action: 'raised', eventUs: 42 } });
  const log = {
    type: 'log',
    nodeId: 'n',
    nodeName: 'a@h',
    log: { time: 1, level: 'error', kind: 'crash', text: 'é"'.repeat(5_000) },
    tags: ['op'],
  } as const;
  const cut = eventPayload('i1', log);
  expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(LIMIT);
  const sent = JSON.parse(cut) as { e: { log: { text: string } } };
  expect(sent.e.log.text.endsWith('…')).toBe(true);
  expect(log.log.text.startsWith(sent.e.log.text.slice(0, -1))).toBe(true);
  const small = { type: 'node_state', nodeId: 'n', nodeName: 'a@h', state: 'UP', deleted: false } as const;
  expect(JSON.parse(eventPayload('i1', small))).toEqual({ o: 'i1', e: small });
});

describePostgresOnly<NodeManagerDatabase>('change relay between two instances', (getDb) => {
  const config = loadNodeManagerConfig({}, { logLevel: 'silent', scryptCost: 16 });
  const cores: NodeManagerCore[] = [];
  const relays: ChangeRelay[] = [];
  const buses: ChangeBus[] = [];
  const heard: { event: NodeManagerEvent; origin: EventOrigin }[] = [];
  const pluginChanges: string[] = [];

  beforeAll(async () => {
    const database = getDb();
    await migrateToLatest(database, { migrations: nodeManagerMigrations, tableName: NODE_MANAGER_MIGRATION_TABLE });
    for (const instanceId of ['one', 'two']) {
      const core = createNodeManagerCore({ config, database, instanceId });
      const bus = openChangeBus(database);
      cores.push(core);
      buses.push(bus);
      relays.push(
        await ChangeRelay.start({
          bus,
          instanceId,
          events: core.events,
          plugins: core.plugins,
          alarms: core.alarmStore,
          authenticator: core.authenticator,
          onNodesChanged: () => {},
        }),
      );
    }
    cores[1]?.events.subscribe((event, origin) => heard.push({ event, origin }));
    cores[1]?.plugins.onChange((nodeId, origin) => pluginChanges.push(`${nodeId} ${origin}`));
  });
  afterAll(async () => {
    for (const relay of relays) await relay.close();
    for (const bus of buses) await bus.close();
  });

  it('delivers an alarm of one instance to the other as remote, read by key when too large', async () => {
    const [one] = cores;
    if (!one) throw new Error('no core');
    const node = await one.topology.addNode('relay@h', 'c');
    const { alarm } = await one.alarms.raise({
      alarmId: 'big',
      nodeId: node.id,
      additionalInformation: 'y'.repeat(20_000),
    });
    await waitFor(() => heard.some((h) => h.event.type === 'alarm'), 10_000, 'the alarm on the other instance');
    const received = heard.find((h) => h.event.type === 'alarm');
    expect(received?.origin).toBe('remote');
    expect(received?.event).toMatchObject({
      type: 'alarm',
      action: 'raised',
      eventUs: alarm.eventUs,
      tags: ['dev', 'op'],
    });
    expect(JSON.stringify(received?.event.type === 'alarm' ? received.event.alarm : null)).toContain(
      'y'.repeat(20_000),
    );
    // The node state of the add came too, and a plugin switch reaches the other's listeners.
    expect(heard.some((h) => h.event.type === 'node_state' && h.origin === 'remote')).toBe(true);
    await one.plugins.setState(node.id, 'off');
    await waitFor(() => pluginChanges.includes(`${node.id} remote`), 10_000, 'the plugin change');
    // Nothing an instance sent comes back to itself as remote.
    const own: NodeManagerEvent[] = [];
    one.events.subscribe((event, origin) => origin === 'remote' && own.push(event));
    await one.alarms.clear('big', alarm.rawSrc);
    await waitFor(() => heard.some((h) => h.event.type === 'alarm' && h.event.action === 'cleared'), 10_000, 'clear');
    expect(own).toEqual([]);
  });

  it('throttles on one instance the password guesses made on another', async () => {
    const [one, two] = cores;
    if (!one || !two) throw new Error('no cores');
    const address = '192.0.2.7';
    const guess = (core: NodeManagerCore, password: string) =>
      core.authenticator.authenticate(`Basic ${Buffer.from(`admin:${password}`).toString('base64')}`, address);
    expect(two.authenticator.waitMs('admin', address)).toBe(0);
    for (let i = 0; i < 3; i += 1) expect(await guess(one, `wrong-${i}`)).toEqual({ refused: 'unauthorized' });
    // Three failures of one user from one address are free; the fourth attempt must wait, on either instance.
    await waitFor(() => two.authenticator.waitMs('admin', address) > 0, 10_000, 'the failures to reach the other');
    expect(await guess(two, 'wrong-3')).toMatchObject({ refused: 'throttled' });
  });
});
