import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { freePort } from './free-port.js';
import { openDatabase } from './open-database.js';

const run = promisify(execFile);

/** Title part of a suite skipped because the PostgreSQL server programs are not installed. */
export const POSTGRES_BINARIES_UNAVAILABLE =
  'PostgreSQL server programs not found in /usr/lib/postgresql/*/bin: install postgresql';

/** A throwaway primary with one hot standby, both on loopback. */
export interface ReplicatedPostgres {
  /** Superuser URL of the primary (`postgres` database, trust authentication). */
  readonly primaryUrl: string;
  /** The same on the standby, read-only. */
  readonly standbyUrl: string;
  /** Stops the standby (fast shutdown); its data stays. */
  stopStandby(): Promise<void>;
  /** Starts the stopped standby and waits until it accepts read-only connections. */
  startStandby(): Promise<void>;
  restartStandby(): Promise<void>;
  /** Resolves once the standby has replayed everything the primary had written when called. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** Stops both servers at once and deletes their files. Idempotent. */
  stop(): Promise<void>;
}

/** The newest `/usr/lib/postgresql/<version>/bin` holding `initdb`, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/**
 * Starts a fresh primary (`initdb`, `wal_level=replica`, `fsync=off`) and a hot standby copied
 * from it with `pg_basebackup -R`, each on a free loopback port, under one new `/tmp` directory.
 * As root the programs run as the `postgres` user (PostgreSQL refuses to run as root), otherwise
 * as the calling user.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error(POSTGRES_BINARIES_UNAVAILABLE);
  const dir = await mkdtemp('/tmp/triad-replicated-pg-');
  const asServerUser = process.getuid?.() === 0;
  if (asServerUser) await run('chown', ['postgres:postgres', dir]);
  const pg = (program: string, ...args: string[]) => {
    const command = [path.join(bin, program), ...args].map(shellQuote).join(' ');
    // `cd /`: the postgres user may not enter the caller's working directory.
    return asServerUser ? run('su', ['postgres', '-c', `cd / && ${command}`]) : run('sh', ['-c', command]);
  };
  const primaryData = path.join(dir, 'primary');
  const standbyData = path.join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const serverOptions = (port: number) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c wal_level=replica -c hot_standby=on`;
  const start = (data: string, port: number) =>
    pg('pg_ctl', '-D', data, '-o', serverOptions(port), '-l', `${data}.log`, '-w', '-t', '60', 'start');
  const stopServer = (data: string, mode: 'fast' | 'immediate') => pg('pg_ctl', '-D', data, '-m', mode, '-w', 'stop');

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await Promise.allSettled([stopServer(standbyData, 'immediate'), stopServer(primaryData, 'immediate')]);
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    await pg('initdb', '-D', primaryData, '-A', 'trust', '-U', 'postgres', '--no-sync');
    await start(primaryData, primaryPort);
    await pg(
      'pg_basebackup',
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyData],
      ...['-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    );
    await start(standbyData, standbyPort);
  } catch (error) {
    await stop();
    throw error;
  }
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const standbyUrl = `postgres://postgres@127.0.0.1:${standbyPort}/postgres`;
  return {
    primaryUrl,
    standbyUrl,
    stopStandby: async () => {
      await stopServer(standbyData, 'fast');
    },
    startStandby: async () => {
      await start(standbyData, standbyPort);
    },
    restartStandby: async () => {
      await stopServer(standbyData, 'fast');
      await start(standbyData, standbyPort);
    },
    waitForReplay: (timeoutMs = 30_000) => waitForReplay(primaryUrl, standbyUrl, timeoutMs),
    stop,
  };
}

async function waitForReplay(primaryUrl: string, standbyUrl: string, timeoutMs: number): Promise<void> {
  const primary = openDatabase({ url: primaryUrl, maxConnections: 1 });
  const standby = openDatabase({ url: standbyUrl, maxConnections: 1 });
  try {
    const target = (await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary.db)).rows[0]
      ?.lsn;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await sql<{ done: boolean | null }>`
        select pg_last_wal_replay_lsn() >= ${target}::pg_lsn as done`.execute(standby.db);
      if (rows[0]?.done === true) return;
      if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${target} in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await Promise.all([primary.close(), standby.close()]);
  }
}

function shellQuote(word: string): string {
  return /^[\w./=:-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
