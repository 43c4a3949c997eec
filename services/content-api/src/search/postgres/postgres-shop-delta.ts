import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { encodeArticleDocument, parseStoredArticle } from '../../model/article-document.js';
import { withDocumentPrices, withDocumentPricesText, withPricesText } from '../../model/document-prices.js';
import { articlePriceFields } from '../article-index-fields.js';
import { indexed, type IndexedArticle } from '../indexed-article.js';
import type { CatalogChange, DeltaCounts, ShopCatalogDelta } from '../search-backend.js';
import { checkShopArticle, checkShopId } from '../shop-article-check.js';
import { setCurrentHash, setShopHash, takeImportLock } from './postgres-catalog-writer.js';
import {
  ARTICLE_COPY_TARGET,
  articleCopyLine,
  freeSlot,
  rebuildPostgresSegment,
  touchCatalog,
  type AnnounceCatalog,
} from './postgres-segment-writer.js';
import { copyRows } from './copy-rows.js';
import { patchPostgresSegment, SegmentTrace, type WrittenSegment } from './postgres-segment-patch.js';
import { chunkBytes, COLUMN_CHUNK, joinChunks, SLOT_SPAN } from '../segments/segment-columns.js';
import type { PostgresContentTables } from './postgres-content-tables.js';
import { WaitingDelta } from '../waiting-delta.js';
import { PostgresWaitingRows } from './postgres-waiting-rows.js';
import { PostgresPriceScheduleRows } from './postgres-price-schedule-rows.js';

type PriceChange = CatalogChange & { readonly kind: 'prices' };
/** An upsert (its article indexed) or a delete, applied with others in one batch. */
type RowChange =
  { readonly kind: 'upsert'; readonly article: IndexedArticle } | (CatalogChange & { readonly kind: 'delete' });

/** Upserts and deletes applied together: one lookup, one delete and one COPY per batch. */
const ROW_BATCH = 1000;

/** Price changes looked up and written together: two statements per batch instead of two per change. */
const PRICE_BATCH = 1000;

/**
 * Applies a delta to one shop in one transaction (after the import lock): upserts by article id
 * (a new article takes the next position of the shop's slot), deletes, price changes (in batches
 * of consecutive ones: the stored documents read, their prices put in, the documents and price
 * columns written). Batches are applied one after another while the next is read. Deleted
 * places are then filled with the last articles, so positions stay dense, and the shop's segment
 * follows with a new generation (readers reload this shop only): the price columns patched for
 * a delta of price changes only, the touched positions patched (`patchPostgresSegment`) when
 * they are at most a quarter of the shop, else built again from every row. `patched` is given
 * the patched segment's columns as written, before the commit (`WrittenSegment`).
 */
export async function applyPostgresShopDelta(
  db: Kysely<PostgresContentTables>,
  delta: ShopCatalogDelta,
  announce: AnnounceCatalog,
  patched?: (segment: WrittenSegment) => void,
): Promise<DeltaCounts> {
  const { shop } = delta;
  checkShopId(shop.id);
  return db.transaction().execute(async (trx) => {
    await takeImportLock(trx, delta);
    await trx
      .insertInto('content_shops')
      .values({ shop_id: shop.id, name: shop.name, document: JSON.stringify(shop) })
      .onConflict((oc) => oc.column('shop_id').doNothing())
      .execute();
    const header = (
      await sql<{ slot: number; size: number }>`
        select slot, article_count as size from content_segments where shop_id = ${shop.id}`.execute(trx)
    ).rows[0];
    const slot = header?.slot ?? (await freeSlot(trx));
    const waiting = await WaitingDelta.start(
      new PostgresWaitingRows(trx),
      delta,
      new PostgresPriceScheduleRows(trx),
      (id) => documentOf(trx, id),
    );
    const base = slot * SLOT_SPAN;
    let size = header?.size ?? 0;
    let added = 0;
    let updated = 0;
    let deleted = 0;
    let prices: PriceChange[] = [];
    const batched = new Set<string>();
    const holes: number[] = [];
    /** New prices (scaled, with special taxes) by position, for a delta of price changes only. */
    const priced = new Map<number, readonly [number, number]>();
    // What the delta does to the positions of an existing segment, so it can be patched.
    const trace = header && header.size > 0 ? new SegmentTrace(header.size, priced) : undefined;
    let rows: RowChange[] = [];
    // Batches run one after the other while the next one is read: `submit` returns once the
    // batch before has finished (and throws its error), so at most two are in memory.
    let running: Promise<void> = Promise.resolve();
    const submit = async (work: () => Promise<void>) => {
      const before = running;
      running = before.then(work);
      // Awaited by the next submit or at the end; until then a failure must not count as unhandled.
      running.catch(() => {});
      await before;
    };
    const flushPrices = async () => {
      if (prices.length === 0) return;
      const batch = prices;
      prices = [];
      batched.clear();
      await submit(async () => {
        updated += await applyPrices(trx, base, batch, waiting.onUnknown, priced);
      });
    };
    const flushRows = async () => {
      if (rows.length === 0) return;
      const batch = rows;
      rows = [];
      await submit(() => applyRows(batch));
    };
    const applyRows = async (changes: readonly RowChange[]) => {
      // The stored places of the batch's ids, then the changes in order against them.
      const ids = [...new Set(changes.map((c) => (c.kind === 'upsert' ? c.article.id : c.articleId)))];
      const found = inSlot(
        base,
        (
          await sql<{ id: string; seq: number; text: string; description: string }>`
            select article_id as id, seq::float8 as seq, search_text as text, description from content_articles
            where article_id collate "C" = any(${ids}::text[])`.execute(trx)
        ).rows,
      );
      for (const row of found) trace?.stored(row.seq - base, row.text, row.description);
      const placeOf = new Map<string, number | undefined>(found.map((r) => [r.id, r.seq]));
      const stored = new Set(found.map((r) => r.seq));
      const gone = new Set<number>(); // stored rows to delete (deleted, or written again)
      const written = new Map<number, IndexedArticle>(); // rows to write, by seq
      for (const change of changes) {
        if (change.kind === 'upsert') {
          const seq = placeOf.get(change.article.id);
          if (seq !== undefined) {
            if (!written.has(seq)) gone.add(seq);
            written.set(seq, change.article);
            trace?.updated(seq - base);
            updated += 1;
          } else {
            placeOf.set(change.article.id, base + size);
            written.set(base + size, change.article);
            trace?.appended(size);
            size += 1;
            added += 1;
          }
          continue;
        }
        const seq = placeOf.get(change.articleId);
        if (seq === undefined) {
          waiting.onUnknown(change);
          continue;
        }
        written.delete(seq);
        if (stored.has(seq)) gone.add(seq);
        placeOf.set(change.articleId, undefined);
        holes.push(seq - base);
        trace?.deleted(seq - base);
        deleted += 1;
      }
      if (gone.size > 0) await deleteArticleRows(trx, [...gone]);
      if (written.size > 0)
        await copyRows(
          trx,
          ARTICLE_COPY_TARGET,
          Buffer.from([...written].map(([seq, article]) => articleCopyLine(seq, shop.id, article)).join('')),
        );
    };
    for await (const change of waiting.changes()) {
      if (change.kind === 'prices') {
        await flushRows();
        // A second change of the same article applies on top of the first one.
        if (batched.has(change.articleId)) await flushPrices();
        prices.push(change);
        batched.add(change.articleId);
        if (prices.length === PRICE_BATCH) await flushPrices();
        continue;
      }
      await flushPrices();
      if (change.kind === 'upsert') {
        const article = indexed(change.article);
        checkShopArticle(article, shop.id);
        rows.push({ kind: 'upsert', article });
      } else rows.push(change);
      if (rows.length === ROW_BATCH) await flushRows();
    }
    await flushRows();
    await flushPrices();
    await running;
    delta.beforeCommit?.();
    size -= deleted;
    if (header && added === 0 && deleted === 0 && updated === priced.size) {
      await patchPrices(trx, slot, size, priced);
      delta.onSegment?.('prices');
    } else {
      await fillHoles(trx, base, size, holes, trace);
      // Patching reads the touched rows a few times; past a quarter of the shop, reading every row once is cheaper.
      if (trace && size > 0 && trace.touched <= trace.oldSize / 4) {
        const written = await patchPostgresSegment(trx, slot, size, trace, delta.bucketBatch);
        patched?.(written);
        delta.onSegment?.('patched');
      } else {
        await rebuildPostgresSegment(trx, shop.id, slot);
        delta.onSegment?.('rebuilt');
      }
    }
    await setCurrentHash(trx, delta.hash);
    await setShopHash(trx, shop.id, delta.hash);
    await announce(trx);
    return waiting.counts({ added, updated, deleted });
  });
}

/**
 * Moves the articles stored at positions `size` and above into the deleted places below `size`,
 * so the shop's `size` articles sit at positions `0..size-1`.
 */
async function fillHoles(
  trx: Transaction<PostgresContentTables>,
  base: number,
  size: number,
  holes: readonly number[],
  trace: SegmentTrace | undefined,
): Promise<void> {
  const free = holes.filter((p) => p < size).sort((a, b) => a - b);
  if (free.length === 0) return;
  const movers = await sql<{ seq: number; text: string; description: string }>`
    select seq::float8 as seq, search_text as text, description from content_articles
    where seq >= ${base + size} and seq < ${base + SLOT_SPAN} order by seq`.execute(trx);
  if (movers.rows.length !== free.length)
    throw new Error(`${movers.rows.length} articles beyond position ${size} for ${free.length} free places`);
  movers.rows.forEach((row, i) => trace?.moved(row.seq - base, free[i]!, row.text, row.description));
  const sources = movers.rows.map((r) => r.seq);
  const targets = free.map((p) => base + p);
  // The free places' prices went with their articles; an article's prices move with it. The sources
  // as a condition of their own too: without it the planner joined the prices by hashing the whole table.
  for (const table of ['content_articles', 'content_article_prices'])
    await sql`update ${sql.table(table)} a set seq = m.target from
        unnest(${sources}::bigint[], ${targets}::bigint[]) as m (source, target)
      where a.seq = m.source and a.seq = any(${sources}::bigint[])`.execute(trx);
}

/**
 * The rows of a lookup by article id that lie in the slot at `base`. The slot's range is not a
 * condition of the lookup: with it the planner, its statistics older than the slot's rows, estimated
 * the range to hold about one row and scanned the whole slot through the primary key, filtering by
 * id (20-165 ms per batch of 1,000 at 50,000 articles a shop), instead of using the id index.
 */
function inSlot<R extends { readonly seq: number | string }>(base: number, rows: readonly R[]): R[] {
  return rows.filter((row) => Number(row.seq) >= base && Number(row.seq) < base + SLOT_SPAN);
}

/** Deletes the articles at `seqs` and the prices kept beside them. */
async function deleteArticleRows(trx: Transaction<PostgresContentTables>, seqs: readonly number[]): Promise<void> {
  await sql`delete from content_articles where seq = any(${seqs}::bigint[])`.execute(trx);
  await sql`delete from content_article_prices where seq = any(${seqs}::bigint[])`.execute(trx);
}

/** The document of article `id`: the stored one with the prices kept beside it put in. */
async function documentOf(trx: Transaction<PostgresContentTables>, id: string): Promise<string | undefined> {
  const row = (
    await sql<{ document: string; prices: string | null }>`select a.document, p.prices
      from content_articles a left join content_article_prices p on p.seq = a.seq
      where a.article_id collate "C" = ${id}`.execute(trx)
  ).rows[0];
  return row && withPricesText(row.document, row.prices);
}

/** Applies price changes of distinct articles; returns how many articles it changed. */
async function applyPrices(
  trx: Transaction<PostgresContentTables>,
  base: number,
  changes: readonly PriceChange[],
  onUnknown: ((change: CatalogChange) => void) | undefined,
  priced: Map<number, readonly [number, number]>,
): Promise<number> {
  if (changes.length === 0) return 0;
  // One array parameter: a list of 1,000 parameters cost more to bind and plan. The ids compared in
  // collation "C", as their one index (`content_articles_id_c_idx`) is: in the database's collation
  // a lookup scanned the shop's rows. Equality is the same in both (deterministic collations compare bytes).
  const stored = inSlot(
    base,
    (
      await sql<{ seq: string; article_id: string; document: string; prices: string | null }>`
        select a.seq, a.article_id, a.document, p.prices
        from content_articles a left join content_article_prices p on p.seq = a.seq
        where a.article_id collate "C" = any(${changes.map((c) => c.articleId)}::text[])`.execute(trx)
    ).rows,
  );
  const byId = new Map(stored.map((row) => [row.article_id, row]));
  // Prices beside the document (most changes), and whole documents (a change the document's price members cannot hold).
  const beside = new PriceRows();
  const rewritten = new PriceRows();
  for (const change of changes) {
    const row = byId.get(change.articleId);
    if (!row) {
      onUnknown?.(change);
      continue;
    }
    const current = withPricesText(row.document, row.prices);
    // Beside the document when nothing else of it changes, else the whole document written.
    const members = withDocumentPricesText(current, change.prices);
    if (members) {
      const fields = articlePriceFields(members.priced);
      priced.set(Number(row.seq) - base, [fields.priceScaled, fields.priceInclScaled]);
      beside.add(row.seq, members.prices, fields.priceScaled, fields.priceInclScaled);
      continue;
    }
    let put = withDocumentPrices(current, change.prices);
    if (!put) {
      const article = { ...parseStoredArticle(current, change.articleId), ...change.prices };
      put = { document: encodeArticleDocument(article), priced: article };
    }
    const fields = articlePriceFields(put.priced);
    priced.set(Number(row.seq) - base, [fields.priceScaled, fields.priceInclScaled]);
    rewritten.add(row.seq, put.document, fields.priceScaled, fields.priceInclScaled);
  }
  // Four array parameters, not four per row: a statement of 4,000 parameters cost more to bind and plan.
  // The texts as one JSON array: the driver's array literal escaped each of their quotes in JavaScript.
  if (beside.seqs.length > 0)
    await sql`insert into content_article_prices (seq, prices, price_scaled, price_incl_scaled)
      select * from rows from (
          unnest(${beside.seqs}::bigint[]), json_array_elements_text(${JSON.stringify(beside.texts)}::json),
          unnest(${beside.scaled}::bigint[]), unnest(${beside.inclScaled}::bigint[]))
      on conflict (seq) do update set prices = excluded.prices, price_scaled = excluded.price_scaled,
        price_incl_scaled = excluded.price_incl_scaled`.execute(trx);
  if (rewritten.seqs.length > 0) {
    await sql`update content_articles as a
      set document = v.document, price_scaled = v.price_scaled, price_incl_scaled = v.price_incl_scaled
      from rows from (
          unnest(${rewritten.seqs}::bigint[]), json_array_elements_text(${JSON.stringify(rewritten.texts)}::json),
          unnest(${rewritten.scaled}::bigint[]), unnest(${rewritten.inclScaled}::bigint[]))
        as v (seq, document, price_scaled, price_incl_scaled)
      where a.seq = v.seq`.execute(trx);
    await sql`delete from content_article_prices where seq = any(${rewritten.seqs}::bigint[])`.execute(trx);
  }
  return beside.seqs.length + rewritten.seqs.length;
}

/** Rows of a price batch as four arrays: seqs, texts (price members or documents) and both scaled prices. */
class PriceRows {
  readonly seqs: string[] = [];
  readonly texts: string[] = [];
  readonly scaled: number[] = [];
  readonly inclScaled: number[] = [];

  add(seq: string, text: string, scaled: number, inclScaled: number): void {
    this.seqs.push(seq);
    this.texts.push(text);
    this.scaled.push(scaled);
    this.inclScaled.push(inclScaled);
  }
}

/**
 * A delta of price changes only: the price columns of the segment are patched in place (only
 * the chunks holding a changed article are written) and the segment gets a new generation;
 * its postings, id order and description ranks stay.
 */
async function patchPrices(
  trx: Transaction<PostgresContentTables>,
  slot: number,
  size: number,
  priced: ReadonlyMap<number, readonly [number, number]>,
): Promise<void> {
  const columns = [
    ['price', 0],
    ['priceInclSpecialTaxes', 1],
  ] as const;
  const touched = new Set([...priced.keys()].map((position) => Math.floor(position / COLUMN_CHUNK)));
  for (const [name, at] of columns) {
    const chunks = await sql<{ data: Buffer }>`
      select data from content_segment_columns where slot = ${slot} and name = ${name} order by chunk`.execute(trx);
    const column = joinChunks(
      name,
      size,
      chunks.rows.map((r) => r.data),
    );
    for (const [position, prices] of priced) column[position] = prices[at];
    for (const chunk of touched) {
      const from = chunk * COLUMN_CHUNK;
      const length = Math.min(COLUMN_CHUNK, size - from);
      await sql`update content_segment_columns set data = ${chunkBytes(column.subarray(from, from + length), length)}
        where slot = ${slot} and name = ${name} and chunk = ${chunk}`.execute(trx);
    }
  }
  await sql`update content_segments set generation = ${randomUUID()} where slot = ${slot}`.execute(trx);
  await touchCatalog(trx);
}
