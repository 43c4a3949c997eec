import { sql, type Kysely, type Migration } from 'kysely';
import type { Database } from './database.js';

/** A table name of letters, digits and `_`, starting with a letter. */
const TABLE = /^[a-z][a-z0-9_]{0,62}$/;

function checkedTable(table: string): string {
  if (!TABLE.test(table)) throw new RangeError(`secret key check table "${table}" must match ${TABLE.source}`);
  return table;
}

/**
 * Creates `table` (`purpose` text primary key, `check_value` text): per kind of stored secret, the
 * check value of the key the secrets are sealed with (service-kit `verifySecretKey`; a keyed hash of
 * a fixed label, never the key), so an instance started with another key refuses to start.
 */
export function secretKeyCheckMigration(table: string): Migration {
  const name = checkedTable(table);
  return {
    // A migration sees the database as it was at its point in history (Kysely convention).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(name)
        .addColumn('purpose', 'text', (c) => c.primaryKey())
        .addColumn('check_value', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(name).execute();
    },
  };
}

/**
 * The rows of a `secretKeyCheckMigration` table, on SQLite and PostgreSQL alike: service-kit's
 * `KeyCheckStore`, which `verifySecretKey` and key rotation read and write.
 */
export class SecretKeyCheckTable {
  readonly #db: Kysely<unknown>;
  readonly #table: ReturnType<typeof sql.table>;

  constructor(database: Pick<Database, 'db'>, table: string) {
    this.#db = database.db as Kysely<unknown>;
    this.#table = sql.table(checkedTable(table));
  }

  async read(purpose: string): Promise<string | undefined> {
    const { rows } = await sql<{
      check_value: string;
    }>`select check_value from ${this.#table} where purpose = ${purpose}`.execute(this.#db);
    return rows[0]?.check_value;
  }

  async recordIfAbsent(purpose: string, value: string): Promise<string> {
    await sql`insert into ${this.#table} (purpose, check_value) values (${purpose}, ${value})
      on conflict (purpose) do nothing`.execute(this.#db);
    return (await this.read(purpose)) ?? value;
  }

  async replace(purpose: string, value: string): Promise<void> {
    await sql`insert into ${this.#table} (purpose, check_value) values (${purpose}, ${value})
      on conflict (purpose) do update set check_value = excluded.check_value`.execute(this.#db);
  }
}
