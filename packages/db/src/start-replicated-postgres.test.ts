import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openDatabase } from './open-database.js';
import { startReplicatedPostgres, type ReplicatedPostgres } from './start-replicated-postgres.js';
import { describeWithPostgresBinaries } from './testing.js';

describeWithPostgresBinaries('startReplicatedPostgres', () => {
  let servers: ReplicatedPostgres;
  let primary: Database;
  let standby: Database;

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    primary = openDatabase({ url: servers.primaryUrl, maxConnections: 2 });
    standby = openDatabase({ url: servers.standbyUrl, maxConnections: 2 });
  });

  afterAll(async () => {
    await Promise.all([primary?.close(), standby?.close()]);
    await servers?.stop();
  });

  const notes = async (database: Database) =>
    (await sql<{ body: string }>`select body from notes order by id`.execute(database.db)).rows.map((r) => r.body);

  it('streams what the primary writes to a read-only hot standby', async () => {
    await sql`create table notes (id serial primary key, body text not null)`.execute(primary.db);
    await sql`insert into notes (body) values ('first')`.execute(primary.db);
    await servers.waitForReplay();
    expect(await notes(standby)).toEqual(['first']);
    const recovery = await sql<{ standby: boolean }>`select pg_is_in_recovery() as standby`.execute(standby.db);
    expect(recovery.rows[0]?.standby).toBe(true);
    await expect(sql`insert into notes (body) values ('refused')`.execute(standby.db)).rejects.toThrow(
      /read-only transaction/,
    );
  });

  it('catches up with writes made while the standby was down, once restarted', async () => {
    await servers.stopStandby();
    await expect(sql`select 1`.execute(standby.db)).rejects.toThrow();
    await sql`insert into notes (body) values ('while down')`.execute(primary.db);
    await servers.startStandby();
    await servers.waitForReplay();
    expect(await notes(standby)).toEqual(['first', 'while down']);

    await servers.restartStandby();
    await sql`insert into notes (body) values ('after restart')`.execute(primary.db);
    await servers.waitForReplay();
    expect(await notes(standby)).toEqual(['first', 'while down', 'after restart']);
  });
});
