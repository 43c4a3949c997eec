import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { IndexedArticle } from '../indexed-article.js';
import type { GroupNames } from '../article-index-fields.js';
import { FacetDictionary, type DictionaryEntry, type DictionaryFacet } from '../segments/facet-dictionary.js';
import {
  classificationKeys,
  SegmentBuilder,
  type ClassificationValues,
  type SegmentRow,
} from '../segments/segment-builder.js';
import { BYTE_ORDER, SLOT_SPAN, type ColumnName } from '../segments/segment-columns.js';
import { parseSeqList } from '../segments/seq-list.js';
import { bucketVocabulary, PostingsBuilder } from '../segments/word-postings.js';
import { copyField, copyRows, CopyBuffer } from './copy-rows.js';
import type { SqlExecutor } from './sql-executor.js';

/** `content_meta` key of the catalog's generation: changes with every change of any segment. */
export const CATALOG_GENERATION_KEY = 'catalog_generation';

/** Articles per COPY. */
const ROW_BATCH = 2000;
/** The columns an import writes, in the order of its COPY lines. */
export const ARTICLE_COPY_TARGET =
  'content_articles (seq, article_id, shop_id, manufacturer_name, description, price_scaled, ' +
  'price_incl_scaled, unspsc7, unspsc9, search_text, document, unspsc, eclass, etim, group_names)';
/** Rows read per query when a segment is rebuilt from the stored articles. */
const REBUILD_PAGE = 16_384;
/** Chunks or buckets per insert statement. */
const BLOB_BATCH = 64;

/**
 * The facet dictionary of one writing transaction: the committed keys, and new values numbered
 * after the highest one (the import lock makes writers take turns, so keys stay dense), inserted
 * by `flush` before the commit.
 */
export class PostgresDictionary {
  readonly #dictionary = new FacetDictionary();
  #added: DictionaryEntry[] = [];

  /** Whether `content_facet_values` has its `label` (false only for migrations before 0010). */
  readonly #labels: boolean;

  private constructor(labels: boolean) {
    this.#labels = labels;
  }

  static async load(trx: SqlExecutor, layout: StoredLayout = 'current'): Promise<PostgresDictionary> {
    const labels = layout === 'current';
    const rows = await sql<DictionaryEntry>`
      select value_key as key, facet_name as facet, value${labels ? sql`, label` : sql``} from content_facet_values
      order by value_key`.execute(trx);
    const dictionary = new PostgresDictionary(labels);
    for (const row of rows.rows) dictionary.#dictionary.add(row);
    return dictionary;
  }

  /** Key of `value` (0 for none); a new value gets the next key, and keeps `label`. */
  keyOf(facet: DictionaryFacet, value: string | null | undefined, label?: string): number {
    if (value === undefined || value === null) return 0;
    const key = this.#dictionary.keyOf(facet, value);
    if (key !== 0) return key;
    const entry = { key: this.#dictionary.maxKey + 1, facet, value, label: label ?? null };
    this.#dictionary.add(entry);
    this.#added.push(entry);
    return entry.key;
  }

  /** Stores the values added since the last flush. */
  async flush(trx: SqlExecutor): Promise<void> {
    if (this.#added.length === 0) return;
    const added = this.#added;
    this.#added = [];
    const keys = sql`${added.map((e) => e.key)}::int[], ${added.map((e) => e.facet)}::text[]`;
    const values = sql`${added.map((e) => e.value)}::text[]`;
    if (this.#labels)
      await sql`insert into content_facet_values (value_key, facet_name, value, label)
        select * from unnest(${keys}, ${values}, ${added.map((e) => e.label ?? null)}::text[])`.execute(trx);
    else
      await sql`insert into content_facet_values (value_key, facet_name, value)
        select * from unnest(${keys}, ${values})`.execute(trx);
  }
}

/** The columns of a stored article a segment is built from. */
export interface StoredValues extends ClassificationValues {
  readonly manufacturerName: string | null | undefined;
  readonly priceScaled: number;
  readonly priceInclScaled: number;
  readonly searchText: string;
  readonly wordCount: number;
}

/**
 * One shop's segment being written: articles go into `content_articles` by COPY (one batch in
 * flight while the next fills) and into the column chunks and postings, which are
 * written by `finish` with the segment row. Memory: one batch, the shop's columns (38 bytes an
 * article) and its postings.
 */
export class PostgresSegmentLoad {
  readonly slot: number;
  readonly #trx: SqlExecutor;
  readonly #shopId: string;
  readonly #dictionary: PostgresDictionary;
  readonly #builder: SegmentBuilder;
  readonly #postings = new PostingsBuilder();
  readonly #chunks: { name: ColumnName; chunk: number; data: Buffer }[] = [];
  /** Rows of the next COPY, in its text format. */
  #rows = new CopyBuffer();
  #pending: Promise<unknown> = Promise.resolve();

  /** Whether `content_postings` has the `words` column (migration 0015; not in `before-0010`). */
  readonly #bucketWords: boolean;

  constructor(trx: SqlExecutor, dictionary: PostgresDictionary, slot: number, shopId: string, bucketWords = true) {
    this.#trx = trx;
    this.#bucketWords = bucketWords;
    this.slot = slot;
    this.#shopId = shopId;
    this.#dictionary = dictionary;
    this.#builder = new SegmentBuilder(slot, (_slot, name, chunk, data) =>
      this.#chunks.push({ name, chunk, data: Buffer.from(data) }),
    );
  }

  get size(): number {
    return this.#builder.size;
  }

  /** Stores the article at the next position (the caller has checked its id is new). */
  async add(article: IndexedArticle): Promise<void> {
    const f = article.fields;
    this.#rows.append(articleCopyLine(this.#builder.nextSeq, this.#shopId, article));
    this.#index({ manufacturerName: article.manufacturerName, ...f });
    if (this.#rows.lines === ROW_BATCH) await this.#flushRows();
  }

  /** Adds an article already stored at the next position (a rebuild). */
  addStored(values: StoredValues): void {
    this.#index(values);
  }

  #index(values: StoredValues): void {
    this.#postings.add(this.#builder.size, values.searchText);
    this.#builder.add(segmentRowOf(this.#dictionary, values));
  }

  /** Writes the rows added so far and waits until they are in the table. */
  async flush(): Promise<void> {
    await this.#flushRows();
    await this.#pending;
  }

  async #flushRows(): Promise<void> {
    // One COPY runs while the next batch fills; a failed one fails the next await.
    await this.#pending;
    if (this.#rows.lines === 0) return;
    const data = this.#rows.take();
    this.#pending = copyRows(this.#trx, ARTICLE_COPY_TARGET, data);
    // Awaited by the next flush or `finish`; until then a failure must not count as unhandled.
    this.#pending.catch(() => {});
  }

  /** Writes the rest of the rows, the id order and description ranks, the chunks, the postings and the segment row. */
  async finish(): Promise<void> {
    await this.#flushRows();
    await this.#pending;
    const trx = this.#trx;
    const base = this.slot * SLOT_SPAN;
    const range = sql`seq >= ${base} and seq < ${base + SLOT_SPAN}`;
    // The id order and description ranks are sorted by PostgreSQL (one statement) while the
    // postings are encoded here.
    const orders = sql<{ order: string | null; ranks: string | null }>`
      select
        (select string_agg((seq - ${base})::text, ',' order by article_id collate "C")
          from content_articles where ${range}) as order,
        (select string_agg(r::text, ',' order by seq) from (
          select seq, dense_rank() over (order by description collate "C") as r
          from content_articles where ${range}) d) as ranks`.execute(trx);
    orders.catch(() => {});
    // Let the statement reach the server before the encoding holds this thread.
    await new Promise((resolve) => setImmediate(resolve));
    const buckets = this.#postings.encode();
    const sorted = (await orders).rows[0];
    this.#builder.finish(parseSeqList(sorted?.order ?? ''), Uint32Array.from(parseSeqList(sorted?.ranks ?? '')));
    await this.#dictionary.flush(trx);
    for (let at = 0; at < this.#chunks.length; at += BLOB_BATCH) {
      const rows = this.#chunks
        .slice(at, at + BLOB_BATCH)
        .map((c) => sql`(${this.slot}, ${c.name}, ${c.chunk}, ${c.data})`);
      await sql`insert into content_segment_columns (slot, name, chunk, data) values ${sql.join(rows)}`.execute(trx);
    }
    for (let at = 0; at < buckets.length; at += BLOB_BATCH) {
      const batch = buckets.slice(at, at + BLOB_BATCH);
      if (this.#bucketWords) {
        const rows = batch.map((data, i) => sql`(${this.slot}, ${at + i}, ${data}, ${bucketVocabulary(data)})`);
        await sql`insert into content_postings (slot, bucket, data, words) values ${sql.join(rows)}`.execute(trx);
      } else {
        const rows = batch.map((data, i) => sql`(${this.slot}, ${at + i}, ${data})`);
        await sql`insert into content_postings (slot, bucket, data) values ${sql.join(rows)}`.execute(trx);
      }
    }
    await sql`insert into content_segments
        (slot, shop_id, generation, article_count, word_total, byte_order, bucket_count)
      values (${this.slot}, ${this.#shopId}, ${randomUUID()}, ${this.#builder.size}, ${this.#builder.wordTotal},
        ${BYTE_ORDER}, ${buckets.length})`.execute(trx);
    await touchCatalog(trx);
  }
}

/** An article's values in the segment columns, facet values as keys of `dictionary` (new ones added). */
export function segmentRowOf(dictionary: PostgresDictionary, values: StoredValues): SegmentRow {
  return {
    manufacturer: dictionary.keyOf('manufacturerName', values.manufacturerName),
    ...classificationKeys(dictionary, values),
    price: values.priceScaled,
    priceInclSpecialTaxes: values.priceInclScaled,
    words: values.wordCount,
  };
}

/** A stored row's segment columns, as the rebuild and the patch read them (`m`, `u7`, ... below). */
export interface StoredRow {
  readonly m: string | null;
  readonly u7: string | null;
  readonly u9: string | null;
  /** `unspsc`, `eclass`, `etim`, `group_names` (null in rows an older release wrote). */
  readonly u: string | null;
  readonly e: string | null;
  readonly et: string | null;
  readonly g: string | null;
  readonly p: number;
  readonly pi: number;
  readonly t: string;
}

/** The segment values of a stored row; its word count from its search text. */
export function storedValuesOf(row: StoredRow): StoredValues {
  return {
    manufacturerName: row.m,
    unspsc7: row.u7 ?? undefined,
    unspsc9: row.u9 ?? undefined,
    unspsc: row.u ?? undefined,
    eclass: row.e ?? undefined,
    etim: row.et ?? undefined,
    groupNames: row.g === null ? {} : (JSON.parse(row.g) as GroupNames),
    priceScaled: row.p,
    priceInclScaled: row.pi,
    searchText: row.t,
    wordCount: row.t === '' ? 0 : row.t.split(' ').length,
  };
}

/** The COPY line (`ARTICLE_COPY_TARGET`'s columns) of an article stored at `seq`. */
export function articleCopyLine(seq: number, shopId: string, article: IndexedArticle): string {
  const f = article.fields;
  return (
    `${seq}\t${copyField(article.id)}\t${copyField(shopId)}\t${copyField(article.manufacturerName)}\t` +
    `${copyField(article.description)}\t${f.priceScaled}\t${f.priceInclScaled}\t${copyField(f.unspsc7)}\t` +
    `${copyField(f.unspsc9)}\t${copyField(f.searchText)}\t${copyField(article.document)}\t` +
    `${copyField(f.unspsc)}\t${copyField(f.eclass)}\t${copyField(f.etim)}\t` +
    `${copyField(groupNamesColumn(f.groupNames))}\n`
  );
}

/** The `group_names` column of an article: its group names as JSON, undefined (null) without any. */
export function groupNamesColumn(names: GroupNames): string | undefined {
  for (const _ in names) return JSON.stringify(names);
  return undefined;
}

/**
 * The tables a writer meets: `current`, or as migration 0005 sees them (`content_articles`
 * without the classification facets' columns and `content_facet_values` without `label`, which
 * migration 0010 adds and fills, and `content_postings` without `words`, which migration 0015 adds).
 */
export type StoredLayout = 'current' | 'before-0010';

/**
 * The select list of the stored values (`StoredRow`), for the rebuild and the patch, from
 * `STORED_ROWS`: an article's prices are those kept beside it where a price delta put them.
 */
export const STORED_ROW_COLUMNS = sql`manufacturer_name as m, unspsc7 as u7, unspsc9 as u9, unspsc as u, eclass as e,
  etim as et, group_names as g, coalesce(ap.price_scaled, a.price_scaled)::float8 as p,
  coalesce(ap.price_incl_scaled, a.price_incl_scaled)::float8 as pi, search_text as t`;

/** The rows `STORED_ROW_COLUMNS` reads: the articles and the prices beside them (migration 0019), `seq` shared. */
export const STORED_ROWS = sql`content_articles a left join content_article_prices ap using (seq)`;

/** `STORED_ROW_COLUMNS` before migration 0010: no classification facet columns yet. */
const STORED_ROW_COLUMNS_BEFORE_0010 = sql`manufacturer_name as m, unspsc7 as u7, unspsc9 as u9, null as u,
  null as e, null as et, null as g, price_scaled::float8 as p, price_incl_scaled::float8 as pi, search_text as t`;

/**
 * Tells the other instances, when the writing transaction commits, that the catalog changed
 * (`PostgresSearchBackend`: a change bus message): they load the new segments before a search
 * asks for them. Called last in every writing transaction.
 */
export type AnnounceCatalog = (trx: SqlExecutor) => Promise<void>;

/** Gives the catalog a new generation: readers reload the segments that changed. */
export async function touchCatalog(trx: SqlExecutor): Promise<void> {
  await sql`insert into content_meta (meta_key, meta_value)
    values (${CATALOG_GENERATION_KEY}, ${randomUUID()})
    on conflict (meta_key) do update set meta_value = excluded.meta_value`.execute(trx);
}

/** Deletes the segment in `slot`: its articles, chunks, postings and row. */
export async function dropPostgresSegment(trx: SqlExecutor, slot: number): Promise<void> {
  const base = slot * SLOT_SPAN;
  for (const table of ['content_articles', 'content_article_prices'])
    await sql`delete from ${sql.table(table)} where seq >= ${base} and seq < ${base + SLOT_SPAN}`.execute(trx);
  await dropSegmentData(trx, slot);
  await touchCatalog(trx);
}

async function dropSegmentData(trx: SqlExecutor, slot: number): Promise<void> {
  await sql`delete from content_segment_columns where slot = ${slot}`.execute(trx);
  await sql`delete from content_postings where slot = ${slot}`.execute(trx);
  await sql`delete from content_segments where slot = ${slot}`.execute(trx);
}

/** The lowest slot no segment uses (slots are reused, so seqs stay small). */
export async function freeSlot(trx: SqlExecutor): Promise<number> {
  const used = await sql<{ slot: number }>`select slot from content_segments order by slot`.execute(trx);
  let slot = 1;
  for (const row of used.rows) {
    if (row.slot !== slot) break;
    slot += 1;
  }
  return slot;
}

/**
 * Builds the segment of the shop's articles stored at positions `0..n-1` of `slot` again from
 * their rows (after a delta, or an upgrade), replacing its chunks, postings and row. `layout`:
 * the tables as the caller sees them (a migration before 0010 passes `before-0010`).
 */
export async function rebuildPostgresSegment(
  trx: SqlExecutor,
  shopId: string,
  slot: number,
  layout: StoredLayout = 'current',
): Promise<void> {
  await dropSegmentData(trx, slot);
  const dictionary = await PostgresDictionary.load(trx, layout);
  const load = new PostgresSegmentLoad(trx, dictionary, slot, shopId, layout === 'current');
  const [columns, table] =
    layout === 'current' ? [STORED_ROW_COLUMNS, STORED_ROWS] : [STORED_ROW_COLUMNS_BEFORE_0010, sql`content_articles`];
  const base = slot * SLOT_SPAN;
  for (let from = base; ; from += REBUILD_PAGE) {
    const rows = await sql<StoredRow>`select ${columns}
      from ${table} where seq >= ${from} and seq < ${from + REBUILD_PAGE} order by seq`.execute(trx);
    for (const r of rows.rows) load.addStored(storedValuesOf(r));
    if (rows.rows.length < REBUILD_PAGE) break;
  }
  await load.finish();
}
