import type { AnyTables } from '@triad/db';
import { sql, type Kysely } from 'kysely';
import { parseStoredArticle } from '../model/article-document.js';
import { classificationFields, type ClassificationFields } from './article-index-fields.js';
import { FacetDictionary, type DictionaryEntry, type DictionaryFacet } from './segments/facet-dictionary.js';
import { classificationKeys } from './segments/segment-builder.js';
import { chunkBytes, COLUMN_CHUNK, SLOT_SPAN } from './segments/segment-columns.js';

/** A migration sees the schema of its time, not the current table map. */
type AnyDb = Kysely<AnyTables>;

/** Stored articles read per query. */
const PAGE = 2000;

/** The segment columns the classification facets added (decision 0032, "ECLASS and ETIM facets"). */
export const ADDED_CLASSIFICATION_COLUMNS = ['unspsc', 'eclass', 'etim'] as const;

/**
 * Fills what the classification facets of a stored catalog need, from the articles' stored
 * documents, for migration 0010 of both engines: the new segment columns (`unspsc`, `eclass`,
 * `etim`) of every segment, the facet values they use (with the group name as label; a value
 * already known without a label gets the first name found), and, with `eachPage`, whatever
 * the engine keeps per article (PostgreSQL's row columns). Expects `content_facet_values.label`
 * to exist. Reads every document once; nothing is kept but one page and one segment's columns.
 */
export async function fillClassificationColumns(
  db: AnyDb,
  eachPage?: (rows: readonly { readonly seq: number; readonly fields: ClassificationFields }[]) => Promise<void>,
): Promise<void> {
  const dictionary = await MigrationDictionary.load(db);
  const segments = await sql<{ slot: number; size: number }>`
    select slot, article_count as size from content_segments order by slot`.execute(db);
  for (const { slot, size } of segments.rows) {
    const base = Number(slot) * SLOT_SPAN;
    const columns = ADDED_CLASSIFICATION_COLUMNS.map(() => new Uint32Array(Number(size)));
    for (let after = base - 1; ;) {
      const rows = await sql<{ seq: number | string; article_id: string; document: string }>`
        select seq, article_id, document from content_articles
        where seq > ${after} and seq < ${base + SLOT_SPAN} order by seq limit ${PAGE}`.execute(db);
      const page = rows.rows.map((row) => ({
        seq: Number(row.seq),
        fields: classificationFields(parseStoredArticle(row.document, row.article_id)),
      }));
      for (const { seq, fields } of page) {
        const keys = classificationKeys(dictionary, fields);
        const position = seq - base;
        if (position >= size) throw new RangeError(`article at seq ${seq} lies beyond its segment of ${size}`);
        ADDED_CLASSIFICATION_COLUMNS.forEach((name, c) => ((columns[c] as Uint32Array)[position] = keys[name]));
      }
      if (eachPage && page.length > 0) await eachPage(page);
      if (rows.rows.length < PAGE) break;
      after = page[page.length - 1]?.seq ?? after;
    }
    await dictionary.flush(db);
    for (const [c, name] of ADDED_CLASSIFICATION_COLUMNS.entries()) {
      const column = columns[c] as Uint32Array;
      await sql`delete from content_segment_columns where slot = ${slot} and name = ${name}`.execute(db);
      for (let from = 0, chunk = 0; from < size; from += COLUMN_CHUNK, chunk += 1) {
        const length = Math.min(COLUMN_CHUNK, size - from);
        const data = Buffer.from(chunkBytes(column.subarray(from, from + length), length));
        await sql`insert into content_segment_columns (slot, name, chunk, data)
          values (${slot}, ${name}, ${chunk}, ${data})`.execute(db);
      }
    }
  }
  await dictionary.flush(db);
}

/** The facet dictionary of the migration: new values numbered after the highest key, labels filled. */
class MigrationDictionary {
  readonly #dictionary = new FacetDictionary();
  #added: DictionaryEntry[] = [];
  readonly #labelled = new Map<number, string>();

  static async load(db: AnyDb): Promise<MigrationDictionary> {
    const rows = await sql<DictionaryEntry>`
      select value_key as key, facet_name as facet, value, label from content_facet_values
      order by value_key`.execute(db);
    const dictionary = new MigrationDictionary();
    for (const row of rows.rows) dictionary.#dictionary.add({ ...row, key: Number(row.key) });
    return dictionary;
  }

  keyOf(facet: DictionaryFacet, value: string | null | undefined, label?: string): number {
    if (value === undefined || value === null) return 0;
    const key = this.#dictionary.keyOf(facet, value);
    if (key === 0) {
      const entry = { key: this.#dictionary.maxKey + 1, facet, value, label: label ?? null };
      this.#dictionary.add(entry);
      this.#added.push(entry);
      return entry.key;
    }
    if (label && this.#dictionary.labelOf(key) === undefined && !this.#labelled.has(key))
      this.#labelled.set(key, label);
    return key;
  }

  async flush(db: AnyDb): Promise<void> {
    for (const e of this.#added)
      await sql`insert into content_facet_values (value_key, facet_name, value, label)
        values (${e.key}, ${e.facet}, ${e.value}, ${e.label ?? null})`.execute(db);
    this.#added = [];
    for (const [key, label] of this.#labelled)
      await sql`update content_facet_values set label = ${label} where value_key = ${key} and label is null`.execute(
        db,
      );
    this.#labelled.clear();
  }
}
