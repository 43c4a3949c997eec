import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '@triad/db';
import { DeviceRepository } from '../repositories/device-repository.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { pingTemplate } from '../test-support/ping-template.js';
import { CLUSTER_WAIT as WAIT, describeOnPostgres } from '../test-support/templates-cluster.js';
import { openEventStream } from '../test-support/templates-process.js';
import { buildTestApp } from '../test-support/templates-test-app.js';
import { DEVICE_TOPICS } from './device-messages.js';

// Two template services in this process on one PostgreSQL schema. The fault: a notification lost
// while a bus connection was away. The connections are cut for real (pg_terminate_backend); the
// lost notification is an event stored without being published, as the bus cannot be made to lose
// one on cue.

describeOnPostgres('device events after the change bus was away', (postgresUrl) => {
  const schema = `test_relay_${randomBytes(4).toString('hex')}`;
  let admin: Database | undefined;
  const databases: Database<TemplatesDatabase>[] = [];
  const apps: FastifyInstance[] = [];
  let id = '';

  beforeAll(async () => {
    admin = openDatabase({ url: postgresUrl, maxConnections: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    for (const name of ['relay-a', 'relay-b']) {
      const database = openDatabase<TemplatesDatabase>({ url: postgresUrl, schema, maxConnections: 4 });
      databases.push(database);
      apps.push(await buildTestApp(database, { leaseTtlMs: 3000, leaseHeartbeatMs: 1000 }, { instanceId: name }));
    }
    expect(
      (await apps[0]!.inject({ method: 'POST', url: '/templates', payload: pingTemplate('1.0.0', 1e9) })).statusCode,
    ).toBe(201);
    const created = await apps[0]!.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'loopback',
        templateId: 'Ping Check',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1' },
        drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 2000 } },
      },
    });
    id = created.json<{ id: string }>().id;
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    if (admin) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    }
  });

  it('gives a stream on another instance the events stored while its bus connection was away', async () => {
    const owned = async (app: FastifyInstance) =>
      (await app.inject('/healthz')).json<{ devicesOwned: number }>().devicesOwned;
    await expect.poll(async () => (await owned(apps[0]!)) + (await owned(apps[1]!)), WAIT).toBe(1);
    const other = (await owned(apps[0]!)) === 1 ? apps[1]! : apps[0]!;
    const address = await other.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openEventStream(`${address}/devices/${id}/stream`);
    try {
      await expect.poll(() => stream.text(), WAIT).toMatch(/^event: value$/m);
      await new DeviceRepository(databases[0]!).record(
        id,
        [],
        [{ type: 'log', at: Date.now(), body: { text: 'stored while the bus was away' } }],
      );
      const channels = Object.values(DEVICE_TOPICS).map(
        (topic) => `LISTEN "triad_${createHash('sha1').update(`${schema}\u0000${topic}`).digest('hex')}"`,
      );
      // pg_terminate_backend in the select list runs only for the rows the filter keeps.
      const cut = await sql<{ pid: number }>`
        select pid, pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query = any(${channels}::text[])`.execute(
        admin!.db,
      );
      expect(cut.rows.length).toBeGreaterThanOrEqual(2);
      await expect.poll(() => stream.text(), WAIT).toMatch(/^event: log\ndata: .*stored while the bus was away/m);
      // Given once, though the catch-up and any late message could both bring it.
      expect(stream.text().match(/stored while the bus was away/g)).toHaveLength(1);
    } finally {
      stream.close();
    }
  });
});
