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
  let hourlyId = '';

  beforeAll(async () => {
    admin = openDatabase({ url: postgresUrl, maxConnections: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    for (const name of ['relay-a', 'relay-b']) {
      const database = openDatabase<TemplatesDatabase>({ url: postgresUrl, schema, maxConnections: 4 });
      databases.push(database);
      apps.push(await buildTestApp(database, { leaseTtlMs: 3000, leaseHeartbeatMs: 1000 }, { instanceId: name }));
    }
    // A loopback ping device of a template: stored through the first instance, its id returned.
    const pingDevice = async (template: Record<string, unknown>, name: string) => {
      const version = template['templateVersion'] as string;
      expect((await apps[0]!.inject({ method: 'POST', url: '/templates', payload: template })).statusCode).toBe(201);
      const created = await apps[0]!.inject({
        method: 'POST',
        url: '/devices',
        payload: {
          name,
          templateId: 'Ping Check',
          templateVersion: version,
          variables: { ICMP_IPAddress: '127.0.0.1' },
          drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 2000 } },
        },
      });
      return created.json<{ id: string }>().id;
    };
    id = await pingDevice(pingTemplate('1.0.0', 1e9), 'loopback');
    // Read once an hour: after its first reading its values stay, so only a refresh shows them again.
    const hourly = pingTemplate('2.0.0', 1e9) as { datapointSets: { datapoints: Record<string, unknown>[] }[] };
    for (const datapoint of hourly.datapointSets[0]!.datapoints)
      (datapoint['addressConfig'] as { pollingGroup: string }).pollingGroup = '1h';
    hourlyId = await pingDevice(hourly, 'loopback hourly');
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    if (admin) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    }
  });

  /** The address of the instance that does not collect `deviceId` (listening from the first call). */
  const elsewhere = async (deviceId: string) => {
    const owner = async () =>
      (
        await sql<{ owner: string }>`select owner from ${sql.table(`${schema}.templates_work_leases`)}
          where item_id = ${deviceId}`.execute(admin!.db)
      ).rows[0]?.owner;
    await expect.poll(owner, WAIT).toMatch(/^relay-[ab]$/);
    const other = apps[(await owner()) === 'relay-a' ? 1 : 0]!;
    return other.server.listening
      ? `http://127.0.0.1:${(other.server.address() as { port: number }).port}`
      : other.listen({ port: 0, host: '127.0.0.1' });
  };

  /** Ends every LISTEN session of the schema's device topics (both instances'); the buses reconnect. */
  const cutListeners = async () => {
    const channels = Object.values(DEVICE_TOPICS).map(
      (topic) => `LISTEN "triad_${createHash('sha1').update(`${schema}\u0000${topic}`).digest('hex')}"`,
    );
    // pg_terminate_backend in the select list runs only for the rows the filter keeps.
    return sql<{ pid: number }>`
      select pid, pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query = any(${channels}::text[])`.execute(
      admin!.db,
    );
  };

  it('gives a stream on another instance the events stored while its bus connection was away', async () => {
    const stream = await openEventStream(`${await elsewhere(id)}/devices/${id}/stream`);
    try {
      await expect.poll(() => stream.text(), WAIT).toMatch(/^event: value$/m);
      await new DeviceRepository(databases[0]!).record(
        id,
        [],
        [{ type: 'log', at: Date.now(), body: { text: 'stored while the bus was away' } }],
      );
      const cut = await cutListeners();
      expect(cut.rows.length).toBeGreaterThanOrEqual(2);
      await expect.poll(() => stream.text(), WAIT).toMatch(/^event: log\ndata: .*stored while the bus was away/m);
      // Given once, though the catch-up and any late message could both bring it.
      expect(stream.text().match(/stored while the bus was away/g)).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it('gives a stream on another instance the current values again after its bus connection was away', async () => {
    const stream = await openEventStream(`${await elsewhere(hourlyId)}/devices/${hourlyId}/stream`);
    const valueEvents = () => stream.text().match(/^event: value$/gm)?.length ?? 0;
    try {
      await expect.poll(valueEvents, WAIT).toBeGreaterThan(0);
      const before = valueEvents();
      expect((await cutListeners()).rows.length).toBeGreaterThanOrEqual(2);
      // No reading for an hour: a value event now is the refresh after the reconnect.
      await expect.poll(valueEvents, WAIT).toBeGreaterThan(before);
    } finally {
      stream.close();
    }
  });
});
