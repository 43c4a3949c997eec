import { decodeArticleDocument, encodeArticleDocument } from '../../model/article-document.js';
import { withDocumentPrices } from '../../model/document-prices.js';
import { articleIndexFields, articlePriceFields } from '../article-index-fields.js';
import { indexed, type IndexedArticle } from '../indexed-article.js';
import type { DeltaCounts, ShopCatalogDelta } from '../search-backend.js';
import { checkShopArticle, checkShopId } from '../shop-article-check.js';
import { randomUUID } from 'node:crypto';
import {
  COLUMN_NAMES,
  COLUMN_TYPES,
  joinChunks,
  OPTIONAL_COLUMNS,
  SLOT_SPAN,
  type ColumnName,
  type SegmentColumns,
} from '../segments/segment-columns.js';
import { patchedDescriptionRanks } from '../segments/patched-description-ranks.js';
import { mergedIdOrder } from '../segments/patched-id-order.js';
import { compareCodePoints } from '../code-point-order.js';
import { classificationKeys, MAX_WORDS, SegmentBuilder } from '../segments/segment-builder.js';
import { ShopWordCounts } from '../segments/shop-word-counts.js';
import { WaitingDelta } from '../waiting-delta.js';
import { HandedWords, MAX_HANDED_ARTICLES, type WordsWritten } from './handed-words.js';
import { SqliteWaitingRows } from './sqlite-waiting-rows.js';
import { SqlitePriceScheduleRows } from './sqlite-price-schedule-rows.js';
import {
  descriptionRanks,
  idOrderAll,
  readSegmentWords,
  writeSegmentRow,
  writeSegmentWords,
  type SqliteCatalogWriter,
} from './sqlite-catalog-writer.js';

/** The per-article columns a delta patches (the id order and description ranks are derived). */
const PATCHED = [
  'manufacturer',
  'unspsc7',
  'unspsc9',
  'unspsc',
  'eclass',
  'etim',
  'price',
  'priceInclSpecialTaxes',
  'words',
] as const;

/**
 * Applies a delta to one shop's segment in one `BEGIN IMMEDIATE` transaction: rows are updated in
 * place (an article keeps its seq), new articles take the next position, a deleted article's place
 * is taken by the last one (so positions stay dense). A price change rewrites the document and
 * the price columns only. The shop's columns are then written again with a new generation, so
 * readers reload this shop's segment only. When ids were added or deleted the id order is
 * patched (`patchedSqliteIdOrder`; read again whole when the new ones are over an eighth).
 * Description ranks are patched: only the stored articles' descriptions are ranked among the old
 * ranks (all of them are read again only when more than an eighth changed).
 */
export async function applySqliteShopDelta(
  writer: SqliteCatalogWriter,
  delta: ShopCatalogDelta,
  handOver?: (words: HandedWords) => void,
): Promise<DeltaCounts> {
  const { shop } = delta;
  checkShopId(shop.id);
  let handed: WordsWritten | undefined;
  const counts = await writer.exclusive(async () => {
    writer
      .statement(
        'insert into content_shops (shop_id, name, document) values (?, ?, ?) on conflict (shop_id) do nothing',
      )
      .run(shop.id, shop.name, JSON.stringify(shop));
    const header = writer
      .statement('select slot, article_count as size, generation from content_segments where shop_id = ?')
      .get(shop.id) as { slot: number; size: number; generation: string } | undefined;
    const slot = header?.slot ?? writer.freeSlot();
    const base = slot * SLOT_SPAN;
    let size = header?.size ?? 0;
    // The shop's words, read on the first change of texts and kept counted when they were stored
    // for this generation (else left out: suggestions then count with FTS5).
    let words: ShopWordCounts | undefined;
    let wordsRead = !header;
    if (!header) words = new ShopWordCounts();
    const counted = () => {
      if (!wordsRead && header) words = readSegmentWords((text) => writer.statement(text), slot, header.generation);
      wordsRead = true;
      return words;
    };
    const storedChunks = readChunks(writer, slot);
    // With the old description ranks by position (`descriptionRank`), 0 where the description was
    // stored again (it is then in `descriptions`): only those need ranking, the others keep their order.
    const columns = loadColumns(storedChunks, size);
    const descriptions = new Map<number, string>();
    const storeDescription = (position: number, description: string) => {
      columns.descriptionRank[position] = 0;
      descriptions.set(position, description);
    };
    const dictionary = writer.dictionary();
    const storedDocument = writer.statement('select document from content_articles where article_id = ?').pluck();
    const waiting = await WaitingDelta.start(
      new SqliteWaitingRows(writer),
      delta,
      new SqlitePriceScheduleRows(writer),
      (id) => Promise.resolve(storedDocument.get(id) as string | undefined),
    );
    const seqOf = writer.statement('select seq from content_articles where article_id = ?').pluck();
    const documentOf = writer.statement('select document from content_articles where seq = ?').pluck();
    const rowOf = writer.statement('select seq, document from content_articles where article_id = ?');
    const insertArticle = writer.statement(
      'insert into content_articles (seq, article_id, description, document) values (?, ?, ?, ?)',
    );
    const updateArticle = writer.statement('update content_articles set description = ?, document = ? where seq = ?');
    const updateDocument = writer.statement('update content_articles set document = ? where seq = ?');
    const moveArticle = writer.statement('update content_articles set seq = ? where seq = ?');
    const deleteArticle = writer.statement('delete from content_articles where seq = ?');
    const insertWords = writer.statement('insert into content_article_words (rowid, words) values (?, ?)');
    const deleteWords = writer.statement('delete from content_article_words where rowid = ?');
    /** Takes the words of the article stored at `seq` out of the shop's counts. */
    const uncount = (seq: number, articleId: string) => {
      const counts = counted();
      if (!counts) return;
      const stored = documentOf.get(seq) as string;
      counts.add(articleIndexFields(decodeArticleDocument(stored, articleId)).searchText, -1);
    };
    const setColumns = (position: number, article: IndexedArticle) => {
      const f = article.fields;
      columns.manufacturer[position] = dictionary.keyOf('manufacturerName', article.manufacturerName);
      const groups = classificationKeys(dictionary, f);
      columns.unspsc7[position] = groups.unspsc7;
      columns.unspsc9[position] = groups.unspsc9;
      columns.unspsc[position] = groups.unspsc;
      columns.eclass[position] = groups.eclass;
      columns.etim[position] = groups.etim;
      columns.price[position] = f.priceScaled;
      columns.priceInclSpecialTaxes[position] = f.priceInclScaled;
      columns.words[position] = Math.min(f.wordCount, MAX_WORDS);
    };
    let added = 0;
    let updated = 0;
    let deleted = 0;
    let stored = 0; // articles stored whole: their descriptions may have changed
    // Words to index, by seq, written in ascending seq order at the end: FTS5 writes its pending
    // terms out as a new segment whenever a rowid is not above the last one, which made every
    // out-of-order insert (an update, a moved article) cost 180 µs.
    const pendingWords = new Map<number, string>();
    const places = header ? new IdPlaces(header.size) : undefined;
    const unindex = (seq: number) => {
      // A pending seq has no live entry: its old one was removed when it was queued.
      if (!pendingWords.delete(seq)) deleteWords.run(seq);
    };
    for await (const change of waiting.changes()) {
      if (change.kind === 'upsert') {
        const article = indexed(change.article);
        checkShopArticle(article, shop.id);
        const seq = seqOf.get(article.id) as number | undefined;
        if (seq === undefined) {
          insertArticle.run(base + size, article.id, article.description, article.document);
          places?.added(size, article.id);
          pendingWords.set(base + size, article.fields.searchText);
          counted()?.add(article.fields.searchText);
          roomFor(columns, size + 1);
          setColumns(size, article);
          storeDescription(size, article.description);
          size += 1;
          added += 1;
        } else {
          uncount(seq, article.id);
          counted()?.add(article.fields.searchText);
          updateArticle.run(article.description, article.document, seq);
          unindex(seq);
          pendingWords.set(seq, article.fields.searchText);
          setColumns(seq - base, article);
          storeDescription(seq - base, article.description);
          updated += 1;
        }
        stored += 1;
        continue;
      }
      // A price change reads the document with the seq: one lookup of the id.
      const row = (change.kind === 'prices' ? rowOf.get(change.articleId) : undefined) as
        { seq: number; document: string } | undefined;
      const seq = row?.seq ?? (seqOf.get(change.articleId) as number | undefined);
      if (seq === undefined || seq < base || seq >= base + SLOT_SPAN) {
        waiting.onUnknown(change);
        continue;
      }
      if (change.kind === 'prices') {
        // Texts, classifications and ids stay: only the document and the price columns change.
        if (!row) throw new Error(`no document read for article ${change.articleId}`);
        const text = row.document;
        let put = withDocumentPrices(text, change.prices);
        if (!put) {
          const article = { ...decodeArticleDocument(text, change.articleId), ...change.prices };
          put = { document: encodeArticleDocument(article), priced: article };
        }
        updateDocument.run(put.document, seq);
        const prices = articlePriceFields(put.priced);
        columns.price[seq - base] = prices.priceScaled;
        columns.priceInclSpecialTaxes[seq - base] = prices.priceInclScaled;
        updated += 1;
        continue;
      }
      // Delete: the last article moves into the freed place.
      const last = base + size - 1;
      places?.deleted(seq - base, size - 1);
      uncount(seq, change.articleId);
      deleteArticle.run(seq);
      unindex(seq);
      if (seq !== last) {
        let words = pendingWords.get(last);
        if (words === undefined) {
          const moved = documentOf.get(last) as string;
          const movedId = writer.statement('select article_id from content_articles where seq = ?').pluck().get(last);
          words = articleIndexFields(decodeArticleDocument(moved, movedId as string)).searchText;
        }
        moveArticle.run(seq, last);
        unindex(last);
        pendingWords.set(seq, words);
        for (const name of GROWING) columns[name][seq - base] = columns[name][size - 1]!;
        const description = descriptions.get(size - 1);
        if (description === undefined) descriptions.delete(seq - base);
        else descriptions.set(seq - base, description);
      } else descriptions.delete(seq - base);
      descriptions.delete(size - 1);
      // Values past `size` are left behind: every use below takes the first `size`.
      size -= 1;
      deleted += 1;
    }
    delta.beforeCommit?.();
    for (const seq of [...pendingWords.keys()].sort((a, b) => a - b)) insertWords.run(seq, pendingWords.get(seq));
    const changedIds = added > 0 || deleted > 0;
    const changedText = changedIds || stored > 0;
    let previousIdOrder: Iterable<number> = [];
    if (header && !changedIds) previousIdOrder = joinChunks('idOrder', size, storedChunks.get('idOrder') ?? []);
    const descriptionAt = writer.statement('select description from content_articles where seq = ?').pluck();
    // Patching reads about log2(size / changed) descriptions per changed one; past an eighth of
    // the shop one sorted read of them all is cheaper.
    const ranks = !changedText
      ? columns.descriptionRank.slice(0, size)
      : descriptions.size * 8 <= size
        ? patchedDescriptionRanks(
            columns.descriptionRank.subarray(0, size),
            descriptions,
            (i) => descriptionAt.get(base + i) as string,
          )
        : descriptionRanks(writer, base, size);
    const order = !changedIds
      ? previousIdOrder
      : header && places && places.addedCount * 8 <= size
        ? patchedSqliteIdOrder(writer, shop.id, base, size, places, storedChunks.get('idOrder') ?? [])
        : idOrderAll(writer, shop.id, base);
    // Only the chunks whose bytes changed are written, with this delta's version: a reader holding
    // the others keeps them (a price delta: the price chunks only).
    const version = randomUUID();
    const write = writer.statement(
      'insert or replace into content_segment_columns (slot, name, chunk, data, version) values (?, ?, ?, ?, ?)',
    );
    const chunkCounts = new Map<string, number>();
    const builder = new SegmentBuilder(slot, (s, name, chunk, data) => {
      chunkCounts.set(name, chunk + 1);
      const before = storedChunks.get(name)?.[chunk];
      if (!before?.equals(data)) write.run(s, name, chunk, data, version);
    });
    builder.addColumns(columns, size);
    builder.finish(order, ranks);
    const dropChunks = writer.statement(
      'delete from content_segment_columns where slot = ? and name = ? and chunk >= ?',
    );
    for (const name of COLUMN_NAMES) dropChunks.run(slot, name, chunkCounts.get(name) ?? 0);
    // Chunks of a full import have none: they take this one, so the next delta's readers keep them.
    writer
      .statement('update content_segment_columns set version = ? where slot = ? and version is null')
      .run(version, slot);
    writeSegmentRow(writer, { slot, shopId: shop.id, generation: delta.hash, size, wordTotal: builder.wordTotal });
    if (!wordsRead)
      // Prices only: the words stay, for the new generation too when they were the old one's.
      writer
        .statement('update content_segment_words set generation = ? where slot = ? and generation = ?')
        .run(delta.hash, slot, header?.generation);
    else if (words) writeSegmentWords(writer, slot, delta.hash, words);
    else writer.statement('delete from content_segment_words where slot = ?').run(slot);
    writer.setHash(delta.hash);
    writer.setShopHash(shop.id, delta.hash);
    // The words written, for this process's reader (`handOver`), when the shop was stored before
    // and the change is small enough to be matched in memory.
    if (handOver && header && pendingWords.size > 0 && pendingWords.size <= MAX_HANDED_ARTICLES)
      handed = { slot, from: header.generation, to: delta.hash, size, touched: pendingWords };
    return waiting.counts({ added, updated, deleted });
  }, delta);
  // Committed: only now may a reader take the words as those of generation `delta.hash` (and they
  // are tokenized outside the write lock).
  if (handed) handOver?.(new HandedWords(handed));
  return counts;
}

/**
 * Where a delta put the articles, for patching the id order: which article each position it
 * changed holds, as the old position of an old article or `oldSize + k` for the k-th it added.
 * A position not recorded holds the article it held before.
 */
class IdPlaces {
  readonly #held = new Map<number, number>();
  readonly #addedIds: string[] = [];

  constructor(readonly oldSize: number) {}

  get addedCount(): number {
    return this.#addedIds.length;
  }

  /** A new article `id` was stored at `position` (the segment's end). */
  added(position: number, id: string): void {
    this.#held.set(position, this.oldSize + this.#addedIds.length);
    this.#addedIds.push(id);
  }

  /** The article at `position` was deleted and the one at `last` (the segment's end) moved there. */
  deleted(position: number, last: number): void {
    if (position !== last) this.#held.set(position, this.#held.get(last) ?? last);
    this.#held.delete(last);
  }

  /**
   * The final positions of the old articles still there in `oldOrder`'s order, and of the new
   * ones with their ids, for a segment of `size` articles now.
   */
  final(oldOrder: ArrayLike<number>, size: number): { kept: number[]; added: { id: string; position: number }[] } {
    const finalOf = new Map<number, number>();
    for (const [position, article] of this.#held) finalOf.set(article, position);
    const kept: number[] = [];
    for (let i = 0; i < oldOrder.length; i += 1) {
      const old = oldOrder[i] ?? 0;
      const moved = finalOf.get(old);
      if (moved !== undefined) kept.push(moved);
      else if (old < size && !this.#held.has(old)) kept.push(old);
    }
    const added: { id: string; position: number }[] = [];
    for (const [article, position] of finalOf)
      if (article >= this.oldSize) added.push({ id: this.#addedIds[article - this.oldSize] ?? '', position });
    return { kept, added };
  }
}

/**
 * The id order after a delta, from the stored one (`stored`, its chunks, of `places.oldSize`
 * articles): each new id placed after the id that precedes it, found with one probe of the id
 * index (binary collation: code point order), instead of reading the shop's whole id order.
 */
function patchedSqliteIdOrder(
  writer: SqliteCatalogWriter,
  shopId: string,
  base: number,
  size: number,
  places: IdPlaces,
  stored: readonly Uint8Array[],
): Uint32Array {
  const before = places.oldSize === 0 ? new Uint32Array(0) : joinChunks('idOrder', places.oldSize, stored);
  const { kept, added } = places.final(before, size);
  added.sort((a, b) => compareCodePoints(a.id, b.id));
  const precedingSeq = writer
    .statement(
      'select seq from content_articles where article_id < ? and article_id >= ? order by article_id desc limit 1',
    )
    .pluck();
  const preceding = added.map((a) => {
    const seq = precedingSeq.get(a.id, `${shopId}:`) as number | undefined;
    if (seq === undefined) return null;
    if (seq < base || seq >= base + size)
      throw new Error(`the id before ${a.id} is not in the shop's segment (seq ${seq})`);
    return seq - base;
  });
  return mergedIdOrder(
    size,
    kept,
    added.map((a) => a.position),
    preceding,
  );
}

/**
 * Every stored chunk of the segment in `slot`, by column name in chunk order (each chunk as
 * stored, to compare with what the delta writes).
 */
function readChunks(writer: SqliteCatalogWriter, slot: number): Map<ColumnName, Buffer[]> {
  const rows = writer
    .statement('select name, chunk, data from content_segment_columns where slot = ? order by name, chunk')
    .all(slot) as { name: ColumnName; chunk: number; data: Buffer }[];
  const out = new Map<ColumnName, Buffer[]>();
  for (const row of rows) {
    const list = out.get(row.name) ?? [];
    list[row.chunk] = row.data;
    out.set(row.name, list);
  }
  return out;
}

/** The patched columns and the description ranks of a segment, with room for more articles (`roomFor`). */
type GrowingColumns = { -readonly [K in (typeof GROWING)[number]]: SegmentColumns[K] };
const GROWING = [...PATCHED, 'descriptionRank'] as const;

/** The patched columns of a segment of `size` articles and its description ranks, with room to add some. */
function loadColumns(stored: ReadonlyMap<ColumnName, Buffer[]>, size: number): GrowingColumns {
  const out = {} as Record<(typeof GROWING)[number], SegmentColumns[(typeof GROWING)[number]]>;
  const capacity = size + Math.max(16, size >>> 4);
  for (const name of GROWING) {
    const chunks = size === 0 ? [] : (stored.get(name) ?? []);
    const column = new COLUMN_TYPES[name](capacity);
    // A column added after the segment was stored (`OPTIONAL_COLUMNS`) has no chunks: no values.
    if (size > 0 && !(chunks.length === 0 && OPTIONAL_COLUMNS.has(name)))
      (column as Uint32Array).set(joinChunks(name, size, chunks));
    out[name] = column;
  }
  return out as GrowingColumns;
}

/** Makes room for `size` articles in `columns`: each grows to twice its length when full. */
function roomFor(columns: GrowingColumns, size: number): void {
  if (columns.manufacturer.length >= size) return;
  const capacity = Math.max(size, columns.manufacturer.length * 2);
  for (const name of GROWING) {
    const column = new COLUMN_TYPES[name](capacity);
    (column as Uint32Array).set(columns[name]);
    (columns as Record<string, unknown>)[name] = column;
  }
}
