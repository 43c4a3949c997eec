import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { BusinessShop } from '../../model/article.js';
import { indexed, type IndexedArticle } from '../indexed-article.js';
import type { CatalogReplacement, ShopCatalogReplacement } from '../search-backend.js';
import { catalogShopOf, checkShopArticle, checkShopId } from '../shop-article-check.js';
import { FacetDictionary, type DictionaryEntry, type DictionaryFacet } from '../segments/facet-dictionary.js';
import { classificationKeys, SegmentBuilder } from '../segments/segment-builder.js';
import { BYTE_ORDER, SLOT_SPAN } from '../segments/segment-columns.js';
import { ShopWordCounter, ShopWordCounts } from '../segments/shop-word-counts.js';
import type { SqliteConnection } from './sqlite-connection.js';
import type { SegmentHeader } from '../segments/segment.js';
import { SHOP_HASH_END, SHOP_HASH_KEY } from '../shop-versions.js';
import { waitForStore, type StoreWait } from '../store-busy-error.js';
import { isWaiting } from '../../model/waiting-article.js';
import { SqliteWaitingRows } from './sqlite-waiting-rows.js';
import { SqlitePriceScheduleRows } from './sqlite-price-schedule-rows.js';

/**
 * The write side of the SQLite store, on its own connection. A replacement is one
 * `BEGIN IMMEDIATE` transaction (readers on other connections keep the old catalog until the
 * commit): the shop's old rows go by seq range, articles stream into prepared single-row inserts
 * and into the shop's new segment, which is written last with a new generation. Replacements in
 * this process run one after the other.
 */
export class SqliteCatalogWriter {
  readonly #connection: SqliteConnection;
  readonly #statements = new Map<string, Statement>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(connection: SqliteConnection) {
    this.#connection = connection;
  }

  replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number> {
    const { shop } = replacement;
    checkShopId(shop.id);
    return this.exclusive(async () => {
      const old = this.statement('select slot from content_segments where shop_id = ?').pluck().get(shop.id) as
        number | undefined;
      if (old !== undefined) this.dropSegment(old);
      this.#putShop(shop);
      const load = new SegmentLoad(this, this.dictionary(), this.#freeSlots().next().value, shop.id);
      replacement.onCountsWords?.();
      // The shop's waiting articles are replaced with its searchable ones; an id is in one table only.
      const waiting = new SqliteWaitingRows(this);
      waiting.clearNow(shop.id);
      // So are its price dates: the catalog's articles bring their own.
      const schedule = new SqlitePriceScheduleRows(this);
      schedule.clearNow(shop.id);
      const waitingIds = new Set<string>();
      const stored = this.statement('select 1 from content_articles where article_id = ?').pluck();
      for await (const item of replacement.articles) {
        const article = isWaiting(item) ? item : indexed(item);
        checkShopArticle(article, shop.id);
        const taken = isWaiting(article)
          ? !waitingIds.has(article.id) && stored.get(article.id) === undefined && waiting.putNow(article, false)
          : waitingIds.has(article.id)
            ? load.refuse(article)
            : load.add(article);
        if (taken) {
          if (isWaiting(article)) waitingIds.add(article.id);
          else if (article.priceSchedule) schedule.putNow(shop.id, article.id, article.priceSchedule);
          continue;
        }
        if (!replacement.onDuplicate) throw new RangeError(`article ${article.id} appears twice`);
        replacement.onDuplicate(article);
      }
      load.finish(replacement.hash);
      this.setHash(replacement.hash);
      this.setShopHash(shop.id, replacement.hash);
      return load.size;
    }, replacement);
  }

  replaceCatalog(catalog: CatalogReplacement): Promise<number> {
    for (const shop of catalog.shops) checkShopId(shop.id);
    return this.exclusive(() => {
      this.#connection.exec(
        'delete from content_articles; ' +
          "insert into content_article_words(content_article_words) values ('delete-all'); " +
          'delete from content_segment_columns; delete from content_segments; delete from content_shops; ' +
          'delete from content_segment_words; ' +
          'delete from content_waiting_articles; delete from content_price_schedule;',
      );
      const slots = this.#freeSlots();
      const dictionary = this.dictionary();
      const loads = new Map<string, SegmentLoad>();
      for (const shop of catalog.shops) {
        this.#putShop(shop);
        loads.set(shop.id, new SegmentLoad(this, dictionary, slots.next().value, shop.id));
      }
      const schedule = new SqlitePriceScheduleRows(this);
      for (const item of catalog.articles) {
        const article = indexed(item);
        const load = catalogShopOf(article, loads);
        if (!load.add(article)) throw new RangeError(`article ${article.id} appears twice`);
        if (article.priceSchedule) schedule.putNow(article.shopId, article.id, article.priceSchedule);
      }
      let count = 0;
      for (const load of loads.values()) {
        load.finish(catalog.hash);
        count += load.size;
      }
      this.setHash(catalog.hash);
      this.statement('delete from content_meta where meta_key >= ? and meta_key < ?').run(SHOP_HASH_KEY, SHOP_HASH_END);
      for (const shop of catalog.shops) this.setShopHash(shop.id, catalog.hash);
      return count;
    }, catalog);
  }

  /** Settles when every replacement started so far has ended. */
  idle(): Promise<void> {
    return this.#queue.then(() => undefined);
  }

  /** A prepared statement of the writer connection, prepared once. */
  statement(text: string): Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.#connection.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  /**
   * Runs `work` in one immediate transaction after every earlier replacement of this writer (the
   * shop writer's changes queue here too, so they never meet an import's lock).
   */
  exclusive<T>(work: () => T | Promise<T>, wait?: StoreWait): Promise<T> {
    const run = async () => {
      await waitForStore(() => this.#tryBegin(), wait);
      try {
        const result = await work();
        this.#connection.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#connection.inTransaction) this.#connection.exec('ROLLBACK');
        throw error;
      }
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /**
   * `BEGIN IMMEDIATE` without SQLite's busy wait (it would block the event loop and end in
   * "database is locked"): false when another connection holds the write lock.
   */
  #tryBegin(): boolean {
    const timeout = this.#connection.pragma('busy_timeout', { simple: true }) as number;
    this.#connection.pragma('busy_timeout = 0');
    try {
      this.#connection.exec('BEGIN IMMEDIATE');
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
      throw error;
    } finally {
      this.#connection.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /** Deletes the articles, words, columns and row of the segment in `slot`; inside `exclusive`. */
  dropSegment(slot: number): void {
    const low = slot * SLOT_SPAN;
    const high = low + SLOT_SPAN - 1;
    this.statement('delete from content_article_words where rowid between ? and ?').run(low, high);
    this.statement('delete from content_articles where seq between ? and ?').run(low, high);
    this.statement('delete from content_segment_columns where slot = ?').run(slot);
    this.statement('delete from content_segments where slot = ?').run(slot);
    this.statement('delete from content_segment_words where slot = ?').run(slot);
  }

  /** The lowest unused slot. */
  freeSlot(): number {
    return this.#freeSlots().next().value;
  }

  /** Unused slots, lowest first (slots are reused, so seqs stay small). */
  *#freeSlots(): Generator<number, never> {
    const used = new Set(this.statement('select slot from content_segments').pluck().all() as number[]);
    for (let slot = 1; ; slot += 1) if (!used.has(slot)) yield slot;
  }

  #putShop(shop: BusinessShop): void {
    this.statement(
      'insert into content_shops (shop_id, name, document) values (?, ?, ?) ' +
        'on conflict (shop_id) do update set name = excluded.name, document = excluded.document',
    ).run(shop.id, shop.name, JSON.stringify(shop));
  }

  /** Makes `hash` the current content version; inside `exclusive`. */
  setHash(hash: string): void {
    this.statement(
      "insert into content_meta (meta_key, meta_value) values ('current_hash', ?) " +
        'on conflict (meta_key) do update set meta_value = excluded.meta_value',
    ).run(hash);
  }

  /** Makes `hash` the content version of shop `shopId` (`shopVersions`); inside `exclusive`. */
  setShopHash(shopId: string, hash: string): void {
    this.statement(
      'insert into content_meta (meta_key, meta_value) values (?, ?) ' +
        'on conflict (meta_key) do update set meta_value = excluded.meta_value',
    ).run(SHOP_HASH_KEY + shopId, hash);
  }

  /** The facet dictionary as committed; one per transaction (it adds values in that transaction). */
  dictionary(): WriterDictionary {
    return new WriterDictionary(this);
  }
}

/** Facet value keys for the writer: reads the committed dictionary, adds new values in the transaction. */
export class WriterDictionary {
  readonly #writer: SqliteCatalogWriter;
  readonly #dictionary = new FacetDictionary();

  constructor(writer: SqliteCatalogWriter) {
    this.#writer = writer;
    const rows = writer
      .statement(
        'select value_key as key, facet_name as facet, value, label from content_facet_values order by value_key',
      )
      .all() as DictionaryEntry[];
    for (const row of rows) this.#dictionary.add(row);
  }

  /** Key of `value` (0 for none), added to `content_facet_values` with its `label` when new. */
  keyOf(facet: DictionaryFacet, value: string | null | undefined, label?: string): number {
    if (value === undefined || value === null) return 0;
    const key = this.#dictionary.keyOf(facet, value);
    if (key !== 0) return key;
    const added = Number(
      this.#writer
        .statement('insert into content_facet_values (facet_name, value, label) values (?, ?, ?)')
        .run(facet, value, label ?? null).lastInsertRowid,
    );
    this.#dictionary.add({ key: added, facet, value, label });
    return added;
  }
}

/** Ids read per query while writing a segment's id order. */
const ID_ORDER_PAGE = 65_536;

/** One shop's articles going into the store and into its new segment. */
class SegmentLoad {
  readonly #writer: SqliteCatalogWriter;
  readonly #builder: SegmentBuilder;
  readonly #shopId: string;
  readonly #dictionary: WriterDictionary;
  readonly #insertArticle: Statement;
  readonly #insertWords: Statement;
  readonly #words = new ShopWordCounter();

  constructor(writer: SqliteCatalogWriter, dictionary: WriterDictionary, slot: number, shopId: string) {
    this.#writer = writer;
    this.#shopId = shopId;
    this.#dictionary = dictionary;
    const writeChunk = writer.statement(
      'insert into content_segment_columns (slot, name, chunk, data, version) values (?, ?, ?, ?, ?)',
    );
    // A version of this load for every chunk: the first delta after it leaves a reader the chunks it did not change.
    const version = randomUUID();
    this.#builder = new SegmentBuilder(
      slot,
      (s, name, chunk, data) => void writeChunk.run(s, name, chunk, data, version),
    );
    this.#insertArticle = writer.statement(
      'insert into content_articles (seq, article_id, description, document) values (?, ?, ?, ?) ' +
        'on conflict (article_id) do nothing',
    );
    this.#insertWords = writer.statement('insert into content_article_words (rowid, words) values (?, ?)');
  }

  get size(): number {
    return this.#builder.size;
  }

  /** Stores the article; false (nothing stored) when its id is already stored. */
  add(article: IndexedArticle): boolean {
    const seq = this.#builder.nextSeq;
    const fields = article.fields;
    if (this.#insertArticle.run(seq, article.id, article.description, article.document).changes === 0)
      return this.refuse(article);
    this.#insertWords.run(seq, fields.searchText);
    this.#words.note(article, fields.searchText, true);
    this.#builder.add({
      manufacturer: this.#dictionary.keyOf('manufacturerName', article.manufacturerName),
      ...classificationKeys(this.#dictionary, fields),
      price: fields.priceScaled,
      priceInclSpecialTaxes: fields.priceInclScaled,
      words: fields.wordCount,
    });
    return true;
  }

  /** Stores nothing of the article, whose id is already stored (its words are not counted): false. */
  refuse(article: IndexedArticle): false {
    this.#words.note(article, article.fields.searchText, false);
    return false;
  }

  /** Writes the description ranks, the id order and the segment row. */
  finish(generation: string): void {
    const base = this.#builder.slot * SLOT_SPAN;
    const descriptionRank = descriptionRanks(this.#writer, base, this.#builder.size);
    this.#builder.finish(idOrder(this.#writer, this.#shopId, base), descriptionRank);
    writeSegmentRow(this.#writer, {
      slot: this.#builder.slot,
      shopId: this.#shopId,
      generation,
      size: this.#builder.size,
      wordTotal: this.#builder.wordTotal,
    });
    writeSegmentWords(this.#writer, this.#builder.slot, generation, this.#words.finish());
  }
}

/** Dense ranks (1 = first) of the descriptions of the `size` articles from seq `base`, by position. */
export function descriptionRanks(writer: SqliteCatalogWriter, base: number, size: number): Uint32Array {
  const ranks = new Uint32Array(size);
  const byDescription = writer
    .statement('select seq, description from content_articles where seq >= ? and seq < ? order by description')
    .raw()
    .iterate(base, base + SLOT_SPAN) as IterableIterator<[number, string]>;
  let previous: string | undefined;
  let dense = 0;
  for (const [seq, description] of byDescription) {
    if (description !== previous) {
      dense += 1;
      previous = description;
    }
    ranks[seq - base] = dense;
  }
  return ranks;
}

/**
 * Positions of the shop's articles in id order. The shop's ids are the index range `shopId:` ..
 * `shopId;`, read a page of seqs at a time (a connection cannot write while it iterates a query),
 * the next page after the id of the page's last seq. The ids are not read: as strings they raised
 * the peak RSS of a 1,000,000-article load's end by 130-150 MB (decision 0053). `page`: seqs a query.
 */
export function* idOrder(
  writer: SqliteCatalogWriter,
  shopId: string,
  base: number,
  page = ID_ORDER_PAGE,
): Generator<number> {
  const first = writer
    .statement('select seq from content_articles where article_id >= ? and article_id < ? order by article_id limit ?')
    .pluck();
  const next = writer
    .statement('select seq from content_articles where article_id > ? and article_id < ? order by article_id limit ?')
    .pluck();
  const idAt = writer.statement('select article_id from content_articles where seq = ?').pluck();
  let seqs = first.all(`${shopId}:`, `${shopId};`, page) as number[];
  for (;;) {
    for (const seq of seqs) yield seq - base;
    if (seqs.length < page) return;
    seqs = next.all(idAt.get(seqs[seqs.length - 1]), `${shopId};`, page) as number[];
  }
}

/**
 * Positions of the shop's articles in id order, all at once (`idOrder` without the ids: a delta,
 * which holds the shop's columns anyway, reads only the seqs from the id index).
 */
export function idOrderAll(writer: SqliteCatalogWriter, shopId: string, base: number): Uint32Array {
  const seqs = writer
    .statement('select seq from content_articles where article_id >= ? and article_id < ? order by article_id')
    .pluck()
    .all(`${shopId}:`, `${shopId};`) as number[];
  const order = new Uint32Array(seqs.length);
  for (let i = 0; i < seqs.length; i += 1) order[i] = (seqs[i] as number) - base;
  return order;
}

/**
 * The words stored for the segment in `slot` at `generation` (`writeSegmentWords`); none stored
 * for it: undefined. `statement` prepares on the connection reading (the writer's or a reader's).
 */
export function readSegmentWords(
  statement: (text: string) => Statement,
  slot: number,
  generation: string,
): ShopWordCounts | undefined {
  const stored = statement('select words from content_segment_words where slot = ? and generation = ?')
    .pluck()
    .get(slot, generation) as Buffer | undefined;
  return stored ? ShopWordCounts.decode(stored) : undefined;
}

/** Stores (or replaces) a segment's words (`ShopWordCounts`) for the segment's `generation`. */
export function writeSegmentWords(
  writer: SqliteCatalogWriter,
  slot: number,
  generation: string,
  words: ShopWordCounts,
): void {
  writer
    .statement('insert or replace into content_segment_words (slot, generation, words) values (?, ?, ?)')
    .run(slot, generation, words.encode());
}

/** Stores (or replaces) the row of a segment whose columns are written. */
export function writeSegmentRow(writer: SqliteCatalogWriter, header: SegmentHeader): void {
  writer
    .statement(
      'insert or replace into content_segments (slot, shop_id, generation, article_count, word_total, byte_order) ' +
        'values (?, ?, ?, ?, ?, ?)',
    )
    .run(header.slot, header.shopId, header.generation, header.size, header.wordTotal, BYTE_ORDER);
}
