/**
 * SQLite serves one service instance (issue 17): a second instance on the same file would run its
 * own monitors, caches and schedules beside the first, with nothing to share them. The first
 * instance writes `<file>.instance` (its service, pid, host and start time, mode 0600); a second
 * one finds it and refuses to start, naming the holder and the way out (PostgreSQL). A claim left
 * by a process that is gone (same host, pid not running) is taken over. Command-line tools that
 * open the file briefly (`triad users`, `triad catalog import`) do not claim it.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { DatabaseError } from '../errors.js';

export interface InstanceClaim {
  /** The claim file. */
  readonly file: string;
  /** Removes the claim if it is still ours. Idempotent. */
  release(): Promise<void>;
}

interface ClaimRecord {
  readonly service: string;
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

export async function claimSqliteInstance(sqliteFile: string, service: string): Promise<InstanceClaim> {
  const file = `${sqliteFile}.instance`;
  const mine: ClaimRecord = { service, pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(mine)}\n`);
      } finally {
        await handle.close();
      }
      let released = false;
      return {
        file,
        release: async () => {
          if (released) return;
          released = true;
          const current = await readClaim(file);
          if (current?.pid === mine.pid && current.host === mine.host) await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await readClaim(file);
      if (holder !== undefined && !isStale(holder)) {
        throw new DatabaseError(
          'DB_ERR_SQLITE_IN_USE',
          `${holder.service} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) already serves ` +
            `${sqliteFile}. SQLite serves one instance: stop that one, give this one another data directory, ` +
            `or run several on PostgreSQL (DATABASE_URL). A claim left by a crash on another host is removed ` +
            `by deleting ${file}.`,
          { file, holder },
        );
      }
      // Left by a process that no longer runs (or unreadable): take it over.
      await rm(file, { force: true });
    }
  }
  throw new DatabaseError('DB_ERR_SQLITE_IN_USE', `could not claim ${file}`, { file });
}

async function readClaim(file: string): Promise<ClaimRecord | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<ClaimRecord>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return {
      service: String(parsed.service ?? 'a service'),
      pid: parsed.pid,
      host: parsed.host,
      startedAt: String(parsed.startedAt ?? 'an unknown time'),
    };
  } catch {
    return undefined;
  }
}

/** A claim of this host whose process is gone. Claims of other hosts cannot be checked: never stale. */
function isStale(claim: ClaimRecord): boolean {
  if (claim.host !== hostname()) return false;
  if (claim.pid === process.pid) return false;
  try {
    process.kill(claim.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
