import type { Kysely } from 'kysely';
import { isUniqueViolation, type Database } from '@triad/db';
import type { Right, Role } from '../model/roles.js';
import type { NodeManagerDatabase } from './node-manager-tables.js';
import type { UserRecord } from '../model/user-record.js';

/** Thrown by `insert` when the username is taken. */
export class UserExistsError extends Error {
  constructor(readonly username: string) {
    super(`user ${username} exists`);
    this.name = 'UserExistsError';
  }
}

/** Kysely queries of users and their front pages. */
export class UserRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #now: () => number;

  constructor(database: Database<NodeManagerDatabase>, now: () => number = Date.now) {
    this.#db = database.db;
    this.#now = now;
  }

  async find(username: string): Promise<UserRecord | undefined> {
    const row = await this.#db.selectFrom('nm_users').selectAll().where('username', '=', username).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Usernames in code-point order. */
  async listNames(): Promise<string[]> {
    const rows = await this.#db.selectFrom('nm_users').select('username').execute();
    return rows.map((r) => r.username).sort(codePointOrder);
  }

  async countAdmins(): Promise<number> {
    const row = await this.#db
      .selectFrom('nm_users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('role', '=', 'admin')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** @throws UserExistsError when the name is taken. */
  async insert(user: UserRecord): Promise<void> {
    try {
      await this.#db
        .insertInto('nm_users')
        .values({
          username: user.username,
          password_hash: user.passwordHash,
          role: user.role,
          rights_json: JSON.stringify(user.rights),
          tags_json: JSON.stringify(user.tags),
          created_at: this.#now(),
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new UserExistsError(user.username);
      throw error;
    }
  }

  /** Changes the given fields; false when the user does not exist. */
  async update(username: string, changes: Partial<Omit<UserRecord, 'username'>>): Promise<boolean> {
    const values: Record<string, string> = {};
    if (changes.passwordHash !== undefined) values.password_hash = changes.passwordHash;
    if (changes.role !== undefined) values.role = changes.role;
    if (changes.rights !== undefined) values.rights_json = JSON.stringify(changes.rights);
    if (changes.tags !== undefined) values.tags_json = JSON.stringify(changes.tags);
    const result = await this.#db
      .updateTable('nm_users')
      .set(values)
      .where('username', '=', username)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Deletes the user; their front pages are deleted (`withPages`) or handed to `heir`.
   * False when the user does not exist (nothing changes).
   */
  async delete(username: string, withPages: boolean, heir: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('nm_users').where('username', '=', username).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      if (withPages) await trx.deleteFrom('nm_front_pages').where('owner', '=', username).execute();
      else await trx.updateTable('nm_front_pages').set({ owner: heir }).where('owner', '=', username).execute();
      return true;
    });
  }

  /** Stores a front page (only the owner matters to this service; pages are edited elsewhere). */
  async saveFrontPage(name: string, owner: string, content: unknown): Promise<void> {
    await this.#db
      .insertInto('nm_front_pages')
      .values({ name, owner, content_json: JSON.stringify(content) })
      .onConflict((oc) => oc.column('name').doUpdateSet({ owner, content_json: JSON.stringify(content) }))
      .execute();
  }

  async frontPagesOf(owner: string): Promise<string[]> {
    const rows = await this.#db.selectFrom('nm_front_pages').select('name').where('owner', '=', owner).execute();
    return rows.map((r) => r.name).sort(codePointOrder);
  }
}

function toRecord(row: {
  username: string;
  password_hash: string;
  role: string;
  rights_json: string;
  tags_json: string;
}): UserRecord {
  return {
    username: row.username,
    passwordHash: row.password_hash,
    role: row.role as Role,
    rights: JSON.parse(row.rights_json) as Right[],
    tags: JSON.parse(row.tags_json) as 'all' | string[],
  };
}

/** Orders strings by code point, the same on every engine and locale. */
export function codePointOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
