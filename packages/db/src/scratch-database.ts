import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from './open-database.js';

/** A database of its own on a test server, for processes that take a URL (not a schema). */
export interface ScratchDatabase {
  readonly name: string;
  /** The server's URL with this database's name as its path. */
  readonly url: string;
  /** Drops it, closing whatever is still connected. Idempotent. */
  drop(): Promise<void>;
}

/**
 * Creates a database named `<prefix>_<8 hex>` on the PostgreSQL server of `serverUrl` (whose user
 * may create databases): for services and commands started as processes, which keep their tables
 * in its public schema.
 */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: serverUrl, maxConnections: 1 });
  try {
    await sql`create database ${sql.id(name)}`.execute(admin.db);
  } catch (error) {
    await admin.close();
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    name,
    url: url.toString(),
    drop() {
      dropped ??= sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db).then(
        () => admin.close(),
        async (error: unknown) => {
          await admin.close();
          throw error;
        },
      );
      return dropped;
    },
  };
}
