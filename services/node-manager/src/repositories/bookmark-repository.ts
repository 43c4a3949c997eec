import type { Kysely } from 'kysely';
import type { Database } from '@triad/db';
import type { NodeManagerDatabase } from './node-manager-tables.js';

/** A bookmark; the title identifies it. */
export interface Bookmark {
  readonly title: string;
  readonly url: string;
}

/** Kysely queries of the bookmark set, kept in the order entries were first stored. */
export class BookmarkRepository {
  readonly #db: Kysely<NodeManagerDatabase>;
  readonly #now: () => number;

  constructor(database: Database<NodeManagerDatabase>, now: () => number = Date.now) {
    this.#db = database.db;
    this.#now = now;
  }

  async list(): Promise<Bookmark[]> {
    const rows = await this.#db
      .selectFrom('nm_bookmarks')
      .select(['title', 'url'])
      .orderBy('position')
      .orderBy('title')
      .execute();
    return rows.map((r) => ({ title: r.title, url: r.url }));
  }

  /** Stores the entries: `create` keeps existing titles unchanged, `upsert` overwrites their url. */
  async save(entries: readonly Bookmark[], mode: 'create' | 'upsert'): Promise<void> {
    if (entries.length === 0) return;
    const base = this.#now() * 1000;
    await this.#db
      .insertInto('nm_bookmarks')
      .values(entries.map((e, i) => ({ title: e.title, url: e.url, position: base + i })))
      .onConflict((oc) =>
        mode === 'create'
          ? oc.column('title').doNothing()
          : oc.column('title').doUpdateSet((eb) => ({ url: eb.ref('excluded.url') })),
      )
      .execute();
  }

  async remove(titles: readonly string[]): Promise<void> {
    if (titles.length === 0) return;
    await this.#db.deleteFrom('nm_bookmarks').where('title', 'in', titles).execute();
  }
}
