import { sql, type Kysely, type RawBuilder } from 'kysely';
import { parseStoredArticle } from '../../model/article-document.js';
import { withPricesText } from '../../model/document-prices.js';
import type { SearchPage, SearchQuery } from '../search-query.js';
import { FacetDictionary, type DictionaryEntry } from '../segments/facet-dictionary.js';
import {
  BYTE_ORDER,
  chunkBytes,
  COLUMN_CHUNK,
  COLUMN_NAMES,
  OPTIONAL_COLUMNS,
  sharedColumn,
  SLOT_SPAN,
  type ColumnName,
  type SegmentColumns,
} from '../segments/segment-columns.js';
import { searchSegments } from '../segments/segment-search.js';
import type { SegmentSearcher } from '../workers/search-worker-pool.js';
import { SegmentSnapshot } from '../segments/segment-snapshot.js';
import { lowerBound } from '../segments/seq-list.js';
import { sameFacetColumns, Segment, type SegmentHeader } from '../segments/segment.js';
import {
  bucketOf,
  bucketVocabulary,
  findPostings,
  intersectPostings,
  vocabularyDigitBytes,
  vocabularyWords,
} from '../segments/word-postings.js';
import { PrefixGrouping, type PrefixGroups } from '../segments/prefix-groups.js';
import { matchCacheSeqs } from '../segments/match-cache.js';
import { hasDigit, TermDictionary } from '../segments/term-dictionary.js';
import {
  allExact,
  distinctQueryWords,
  intersectClassified,
  MATCH_CLASS,
  MAX_PREFIX_WORDS,
  MIN_PREFIX_LETTERS,
  seqsOf,
  unionOfPositions,
  wordAlternatives,
  type ClassifiedSeqs,
  type MatchClass,
  type WordAlternative,
} from '../segments/word-matching.js';
import { EMPTY_SUGGESTIONS, suggestWords, type SuggestPage, type SuggestQuery } from '../suggest-words.js';
import { CATALOG_GENERATION_KEY } from './postgres-segment-writer.js';
import type { SqlExecutor } from './sql-executor.js';
import { copyRowsOut, integerArray } from './copy-rows.js';
import type { PostgresContentTables } from './postgres-content-tables.js';
import type { WrittenSegment } from './postgres-segment-patch.js';

/**
 * Most positions the postings cache holds (4 bytes each), over all words and segments: this or
 * `POSTINGS_CACHE_POSITIONS_PER_ARTICLE` per article of the catalog, whichever is more.
 */
const POSTINGS_CACHE_POSITIONS = 8_000_000;
/** Positions the postings cache may hold per article (16 bytes): a word's postings grow with the catalog. */
const POSTINGS_CACHE_POSITIONS_PER_ARTICLE = 4;
/**
 * Most searches (words and shops) the matches cache holds, however few their matches. Its seqs
 * are bounded by `matchCacheSeqs(articles)` (8 bytes each, plus 1 per class under default
 * matching), as SQLite's: 4,000,000 or 4 per article, whichever is more.
 */
const MATCHES_CACHE_ENTRIES = 10_000;

/** Most stored article documents (about 1 kB each) kept for the hits of later searches. */
const DOCUMENTS_CACHE_SIZE = 10_000;

/** An article as stored: its id and document text (`parseStoredArticle`). */
interface StoredDocument {
  readonly id: string;
  readonly document: string;
}

/** The articles a search's words match: seqs ascending, their classes, the indexed words used. */
interface Matched {
  readonly matches: Float64Array;
  readonly classes: Uint8Array | undefined;
  readonly words: ReadonlySet<string>;
  /** The matching mode and query words (`#matches`'s key without the segments). */
  readonly asked: string;
  /** `slot/size/postings generation` of each searched segment, by slot: what its part of the matches depends on. */
  readonly parts: ReadonlyMap<number, string>;
}

interface LoadedSegment {
  readonly segment: Segment;
  readonly bucketCount: number;
  /** Kept by a delta that leaves the postings alone: cached postings stay valid. */
  readonly postingsGeneration: string;
  /** Stored version of each column chunk, by column and chunk number (see `assembleColumns`). */
  readonly versions: ReadonlyMap<ColumnName, readonly number[]>;
}

/** A vocabulary as kept: the slot and postings generation it is of. */
interface HeldVocabulary {
  readonly slot: number;
  readonly postingsGeneration: string;
  readonly vocabulary: SegmentVocabulary;
}

/**
 * A held vocabulary patched with the deltas from postings generation `from` to `to`, which
 * changed the postings of the words of `changes` (each delta's words without and with digits).
 */
interface PatchedVocabulary {
  readonly vocabulary: SegmentVocabulary;
  readonly from: string;
  readonly to: string;
  readonly changes: readonly (readonly (readonly [string, number])[])[];
}

/** Most recorded deltas a vocabulary is patched with at once (the writer keeps as many per segment). */
const MAX_VOCABULARY_STEPS = 8;

/** Header fields of a segment to (re)load. */
type SegmentToLoad = SegmentHeader & { readonly bucketCount: number; readonly postingsGeneration: string };

/** A stored column chunk as a reload reads it: `data` is null when the reader holds that version. */
interface ChunkRow {
  readonly slot: number;
  readonly name: ColumnName;
  readonly chunk: number;
  readonly version: number;
  readonly data: Buffer | null;
}

/**
 * The column chunks of the segments in `slots`, in slot, name and chunk order, without the data
 * of those whose version is in `known` or whose slot is in `bare`; through binary COPY
 * (`copyRowsOut`), since a query's result brings each chunk as hex text twice its size, which
 * the server encodes and this process decodes (at 10 M articles, 477 MB of chunks took 2.8 s on
 * the server at a start). COPY takes no parameters: the integers are checked and written in.
 */
async function readChunkRows(
  trx: SqlExecutor,
  slots: readonly number[],
  known: readonly number[],
  bare: readonly number[],
): Promise<ChunkRow[]> {
  const rows = await copyRowsOut(
    trx,
    `select slot, name, chunk, version::float8,
      case when version = any(${integerArray(known, 'chunk versions')}::bigint[])
        or slot = any(${integerArray(bare, 'segment chunks')}::int[]) then null else data end
    from content_segment_columns where slot = any(${integerArray(slots, 'segment chunks')}::int[])
    order by slot, name, chunk`,
  );
  return rows.map(([slot, name, chunk, version, data]) => {
    if (!slot || !name || !chunk || !version)
      throw new Error('a segment chunk row without its slot, name, chunk or version');
    return {
      slot: slot.readInt32BE(0),
      name: name.toString('utf8') as ColumnName,
      chunk: chunk.readInt32BE(0),
      version: version.readDoubleBE(0),
      data: data ?? null,
    };
  });
}

/** A catalog as loaded: the segments of one catalog generation. */
interface LoadedCatalog {
  readonly generation: string | undefined;
  readonly snapshot: SegmentSnapshot;
  readonly bySlot: ReadonlyMap<number, LoadedSegment>;
}

/** A guarded read saw another catalog generation than the search's: it starts again on the new one. */
const CHANGED = Symbol('catalog changed');

/** Attempts of a search whose catalog keeps changing under it before it gives up. */
const SEARCH_ATTEMPTS = 5;

/**
 * The read side of the PostgreSQL store (decision 0025). Segments (columns) and postings are kept
 * in memory per catalog generation, so a search is the SQLite engine's pass plus, typically, one
 * statement: the documents of its slice. Every statement a search sends also returns the catalog
 * generation it saw (`content_meta`, one indexed row, in the same statement and snapshot): when it
 * is not the generation of the segments in use, the search loads the segments that changed (only
 * those, in one repeatable-read transaction) and starts again. So a reply never mixes two
 * catalogs, and an import committed anywhere is seen by the next search of every instance.
 */
export class PostgresCatalogReader {
  readonly #dictionary = new FacetDictionary();
  /** Most positions `#postings` holds. */
  readonly #postingsCachePositions: number | undefined;
  #catalog: LoadedCatalog | undefined;
  #loading: { generation: string | undefined; promise: Promise<LoadedCatalog> } | undefined;
  /** Positions by `slot/postings generation/word`, least recently used first. */
  readonly #postings = new Map<string, Uint32Array>();
  #cachedPositions = 0;
  /** Vocabulary by `slot/postings generation`, for default matching (decision 0040). */
  readonly #vocabulary = new Map<string, HeldVocabulary>();
  #vocabularyReads = 0;
  #vocabularyPatches = 0;
  #postingsCarried = 0;
  /**
   * Segments as a writer of this process patched them (`handOver`), by slot, until a load takes
   * them: one whose segment row shows that generation takes its chunks from here, not the server.
   */
  readonly #handed = new Map<number, WrittenSegment>();
  #chunksHanded = 0;
  #vocabulariesHanded = 0;
  /**
   * The postings buckets a delta of this process wrote (`handOver`), by slot, while the segment
   * loaded has the postings generation they were written under: a search reads those buckets
   * from here, not from the server.
   */
  readonly #handedPostings = new Map<
    number,
    { postingsGeneration: string; buckets: ReadonlyMap<number, Uint8Array> }
  >();
  #postingsHanded = 0;
  /**
   * Matches by matching mode, words and the searched segments' `slot/postings generation`, least
   * recently used first: what `#matches` computes from postings (and vocabularies) that key holds.
   */
  readonly #matched = new Map<string, Matched>();
  #matchedSeqs = 0;
  /**
   * The key in `#matched` of the newest matches of each `Matched.asked`: after a delta of one
   * shop, a search of the same words takes the other shops' parts from there (`#matchesIn`).
   */
  readonly #newestMatched = new Map<string, string>();
  /**
   * Stored documents of hits by seq, least recently used first, of one catalog generation whose
   * segments had the generations `segments` (by slot); see `#documentsOf`.
   */
  #documents: {
    generation: string | undefined;
    segments: ReadonlyMap<number, string>;
    bySeq: Map<number, StoredDocument>;
  } = { generation: undefined, segments: new Map(), bySeq: new Map() };

  /**
   * `postingsCachePositions`: most positions of postings kept between searches (default 8,000,000
   * or 4 per article of the catalog, whichever is more).
   */
  constructor(options: { readonly postingsCachePositions?: number } = {}) {
    this.#postingsCachePositions = options.postingsCachePositions;
  }

  /** Searches `db` (the primary, or a replica picked for this search); the pass on `searcher` if given (0051). */
  async search(db: Kysely<PostgresContentTables>, query: SearchQuery, searcher?: SegmentSearcher): Promise<SearchPage> {
    let catalog = await this.#current(db);
    for (let attempt = 1; ; attempt += 1) {
      const page = await this.#searchIn(db, catalog, query, searcher);
      if (page !== CHANGED) return page;
      if (attempt === SEARCH_ATTEMPTS)
        throw new Error(`the catalog changed during each of ${SEARCH_ATTEMPTS} attempts of a search`);
      catalog = await this.#refresh(db);
    }
  }

  /**
   * Suggestions in the words of the segments of the shops asked for (`suggestWords`): their
   * vocabularies, read as for default matching, hold each shop's own article counts.
   */
  async suggest(db: Kysely<PostgresContentTables>, query: SuggestQuery): Promise<SuggestPage> {
    let catalog = await this.#current(db);
    const asked = new Set(query.shopIds);
    for (let attempt = 1; ; attempt += 1) {
      const segments = [...catalog.bySlot.values()].filter(
        (s) => s.segment.size > 0 && (asked.size === 0 || asked.has(s.segment.shopId)),
      );
      if (segments.length === 0) return EMPTY_SUGGESTIONS;
      const vocabularies = await this.#vocabularies(db, catalog, segments);
      // Kept vocabularies read nothing: the catalog may have changed since (a delta in another
      // process), which only a read notices. A search always reads its hits' documents.
      if (vocabularies !== CHANGED && (await catalogGeneration(db)) === catalog.generation)
        return suggestWords(
          vocabularies.map((v) => ({ dictionary: v.words })),
          query.q,
          query.limit,
        );
      if (attempt === SEARCH_ATTEMPTS)
        throw new Error(`the catalog changed during each of ${SEARCH_ATTEMPTS} attempts of a suggestion`);
      catalog = await this.#refresh(db);
    }
  }

  /**
   * The catalog to search: the one being loaded when a load is under way (a commit announced to
   * `keepLoaded`, or another search's), since a search of the one in use would only find it
   * changed and start again; else the one in use, or the first one loaded.
   */
  async #current(db: Kysely<PostgresContentTables>): Promise<LoadedCatalog> {
    const loading = this.#loading;
    if (loading)
      try {
        return await loading.promise;
      } catch {
        // The load failed: the search loads what it needs itself.
      }
    return this.#catalog ?? (await this.#refresh(db));
  }

  async #searchIn(
    db: Kysely<PostgresContentTables>,
    catalog: LoadedCatalog,
    query: SearchQuery,
    searcher: SegmentSearcher | undefined,
  ): Promise<SearchPage | typeof CHANGED> {
    // Sent now, answered while this process matches and counts: the generation committed when
    // the search began, or later. Kept documents of that generation then need no other statement.
    const committed = catalogGeneration(db).then(
      (generation) => ({ generation }),
      (error: unknown) => ({ error }),
    );
    const matched = query.words.length > 0 ? await this.#matches(db, catalog, query) : undefined;
    if (matched === CHANGED) return CHANGED;
    const options = { snapshot: catalog.snapshot, query, matches: matched?.matches, classes: matched?.classes };
    const result = searcher ? await searcher.search(options) : searchSegments(options);
    let descriptions = new Map<number, string>();
    if (result.descriptionSeqs.length > 0) {
      const rows = await guarded<{ seq: number; value: string }>(
        db,
        'seq',
        sql`select seq::float8 as seq, description as value from content_articles
          where seq = any(${[...result.descriptionSeqs]}::bigint[])`,
      );
      if (rows.generation !== catalog.generation) return CHANGED;
      descriptions = new Map(rows.rows.map((r) => [r.seq, r.value]));
    }
    const hits = await result.hits(descriptions);
    const kept = this.#documentsOf(catalog);
    const documents = new Map<number, StoredDocument>();
    const missing: number[] = [];
    for (const { seq } of hits) {
      const document = kept.get(seq);
      if (document) documents.set(seq, document);
      else missing.push(seq);
    }
    if (missing.length > 0) {
      const rows = await guarded<{ seq: number; id: string; document: string; prices: string | null }>(
        db,
        'seq',
        sql`select a.seq::float8 as seq, a.article_id as id, a.document, p.prices
          from content_articles a left join content_article_prices p on p.seq = a.seq
          where a.seq = any(${missing}::bigint[])`,
      );
      if (rows.generation !== catalog.generation) return CHANGED;
      for (const row of rows.rows)
        documents.set(row.seq, { id: row.id, document: withPricesText(row.document, row.prices) });
    }
    const check = await committed;
    if ('error' in check) throw check.error;
    if (check.generation !== catalog.generation) return CHANGED;
    for (const [seq, document] of documents) this.#keepDocument(kept, seq, document);
    return {
      total: result.total,
      facets: result.facets,
      hits: hits.map((hit) => {
        const row = documents.get(hit.seq)!;
        return { article: parseStoredArticle(row.document, row.id), score: hit.score };
      }),
      ...(matched ? { matched: { words: matched.words, prefixes: [] } } : {}),
    };
  }

  /**
   * The documents kept for `catalog`. Those kept for another catalog stay where their slot holds
   * a segment of the same generation in both: every write of an article or its prices (an
   * import, a delta, a price delta, a shop removal) gives its segment a new generation, so a
   * delta of one shop keeps the documents of the others.
   */
  #documentsOf(catalog: LoadedCatalog): Map<number, StoredDocument> {
    const held = this.#documents;
    if (held.generation === catalog.generation) return held.bySeq;
    const segments = new Map([...catalog.bySlot].map(([slot, s]) => [slot, s.segment.header.generation]));
    const bySeq = new Map<number, StoredDocument>();
    for (const [seq, document] of held.bySeq) {
      const slot = Math.floor(seq / SLOT_SPAN);
      const generation = segments.get(slot);
      if (generation !== undefined && held.segments.get(slot) === generation) bySeq.set(seq, document);
    }
    this.#documents = { generation: catalog.generation, segments, bySeq };
    return bySeq;
  }

  /** Keeps `document` as the most recently used of `documents`, dropping the oldest beyond the cache size. */
  #keepDocument(documents: Map<number, StoredDocument>, seq: number, document: StoredDocument): void {
    documents.delete(seq);
    documents.set(seq, document);
    for (const oldest of documents.keys()) {
      if (documents.size <= DOCUMENTS_CACHE_SIZE) break;
      documents.delete(oldest);
    }
  }

  /** Segments whose vocabulary this reader read whole, and patched with a delta's changes, so far (for tests). */
  get vocabularyLoads(): { readonly read: number; readonly patched: number } {
    return { read: this.#vocabularyReads, patched: this.#vocabularyPatches };
  }

  /** Kept postings lists taken over for a delta's new postings generation so far (`#carryPostings`; for tests). */
  get postingsCarried(): number {
    return this.#postingsCarried;
  }

  /** Column chunks a load took from a segment handed over (`handOver`) instead of reading them, so far (for tests). */
  get chunksHanded(): number {
    return this.#chunksHanded;
  }

  /** Postings lists a search took from buckets a delta handed over (`handOver`), not read, so far (for tests). */
  get postingsHanded(): number {
    return this.#postingsHanded;
  }

  /** Vocabularies patched with the changes a segment handed over carried (`handOver`), so far (for tests). */
  get vocabulariesHanded(): number {
    return this.#vocabulariesHanded;
  }

  /**
   * Takes the columns a writer of this process stored for a segment (`patchPostgresSegment`,
   * before its commit), so the load that finds that segment's generation committed copies its
   * changed chunks from them instead of reading them back, and patches the vocabulary it holds
   * with the changes handed over when it holds the one they start from, instead of reading the
   * record. Only that generation takes them: a rolled back write is never seen, and a later one
   * (of any process) has another generation. Replaces what was handed over for the slot before.
   */
  handOver(segment: WrittenSegment): void {
    this.#handed.set(segment.slot, segment);
  }

  /** Generation of the catalog in use (undefined before the first load). */
  get loadedGeneration(): string | undefined {
    return this.#catalog?.generation;
  }

  /** Loads what changed since the catalog in use (`db`: the primary or a replica); resolves with its generation. */
  async refresh(db: Kysely<PostgresContentTables>): Promise<string | undefined> {
    return (await this.#refresh(db)).generation;
  }

  /**
   * Reads now the vocabulary of every shop of the catalog in use that this reader does not hold
   * (`keepLoaded`): default matching and suggestions need it, and its first read took 1.7 s at
   * 10 M articles. Nothing when the catalog changes meanwhile (the next load or search reads it).
   */
  async loadVocabularies(db: Kysely<PostgresContentTables>): Promise<void> {
    const catalog = await this.#current(db);
    const segments = [...catalog.bySlot.values()].filter((s) => s.segment.size > 0);
    await this.#vocabularies(db, catalog, segments);
  }

  /** The catalog as committed now; loads what changed since the last one (in one snapshot). */
  #refresh(db: Kysely<PostgresContentTables>): Promise<LoadedCatalog> {
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => this.#refreshIn(trx));
  }

  async #refreshIn(trx: SqlExecutor): Promise<LoadedCatalog> {
    const generation = await catalogGeneration(trx);
    if (this.#catalog && this.#catalog.generation === generation) return this.#catalog;
    // Searches of one generation share its load; the first one's transaction sees that generation too.
    const loading = this.#loading;
    if (loading && loading.generation === generation) return loading.promise;
    {
      const promise = this.#load(trx, generation);
      this.#loading = { generation, promise };
      promise.then(
        (catalog) => {
          if (this.#loading?.promise === promise) {
            this.#catalog = catalog;
            this.#loading = undefined;
          }
        },
        () => {
          if (this.#loading?.promise === promise) this.#loading = undefined;
        },
      );
      return promise;
    }
  }

  async #load(trx: SqlExecutor, generation: string | undefined): Promise<LoadedCatalog> {
    const entries = await sql<DictionaryEntry>`
      select value_key as key, facet_name as facet, value, label from content_facet_values
      where value_key > ${this.#dictionary.maxKey} order by value_key`.execute(trx);
    // Another load may have added some of them meanwhile: keys only grow and never change.
    for (const entry of entries.rows) if (entry.key > this.#dictionary.maxKey) this.#dictionary.add(entry);
    const headers = await sql<
      SegmentHeader & { byteOrder: string; bucketCount: number; wordTotal: number; postingsGeneration: string }
    >`
      select slot, shop_id as "shopId", generation, article_count as size, word_total::float8 as "wordTotal",
        byte_order as "byteOrder", bucket_count as "bucketCount", postings_generation as "postingsGeneration"
      from content_segments order by slot`.execute(trx);
    const before = this.#catalog?.bySlot;
    const bySlot = new Map<number, LoadedSegment>();
    const missing: SegmentToLoad[] = [];
    for (const { byteOrder, ...header } of headers.rows) {
      const loaded = before?.get(header.slot);
      if (loaded && loaded.segment.header.generation === header.generation) bySlot.set(header.slot, loaded);
      else {
        if (byteOrder !== BYTE_ORDER)
          throw new Error(
            `segment of shop ${header.shopId} was stored with byte order ${byteOrder}, ` +
              `this machine uses ${BYTE_ORDER}: import the catalog again`,
          );
        missing.push(header);
      }
    }
    // The vocabularies held for slots whose words a delta changed are patched in the load's
    // snapshot, so a reader kept loaded (`keepLoaded`) has them ready before the next search. The
    // record of the changes is asked for first: it is patched while the changed chunks arrive.
    // Where this process's delta wrote the segment loaded, starting from the postings generation
    // of the vocabulary held, the changes it handed over are taken instead of the record.
    const changedWords = missing.filter((h) => before?.get(h.slot)?.postingsGeneration !== h.postingsGeneration);
    const handedChanges = new Map<number, { held: HeldVocabulary; offer: WrittenSegment }>();
    for (const { slot, generation, postingsGeneration } of changedWords) {
      const offer = this.#handed.get(slot);
      const held = this.#heldVocabulary(slot);
      if (
        offer &&
        held &&
        offer.generation === generation &&
        offer.postingsGeneration === postingsGeneration &&
        offer.previousPostingsGeneration === held.postingsGeneration
      )
        handedChanges.set(slot, { held, offer });
    }
    const recorded = changedWords.filter((h) => !handedChanges.has(h.slot));
    const patching =
      recorded.length > 0
        ? this.#patchedVocabularies(async <R>(query: RawBuilder<R>) => (await query.execute(trx)).rows, recorded)
        : undefined;
    // Awaited below, after the chunks: a failure is not left unhandled meanwhile.
    patching?.catch(() => undefined);
    if (missing.length > 0) {
      // Chunks whose version this reader holds come back without their data, and so do all of a
      // segment handed over at the generation loaded: the versions say which chunks it holds.
      const known: number[] = [];
      for (const { slot } of missing)
        for (const versions of before?.get(slot)?.versions.values() ?? []) known.push(...versions);
      const handed = new Map<number, WrittenSegment>();
      for (const { slot, generation, size } of missing) {
        const offer = this.#handed.get(slot);
        if (offer && offer.generation === generation && offer.size === size) handed.set(slot, offer);
      }
      const rows = await readChunkRows(
        trx,
        missing.map((h) => h.slot),
        known,
        [...handed.keys()],
      );
      const knownVersions = new Set(known);
      const chunks = new Map<number, ChunkRow[]>();
      for (const row of rows) {
        const offer = handed.get(row.slot);
        const r = offer && row.data === null && !knownVersions.has(row.version) ? this.#handedChunk(offer, row) : row;
        const list = chunks.get(r.slot);
        if (list) list.push(r);
        else chunks.set(r.slot, [r]);
      }
      for (const [slot, offer] of handed) if (this.#handed.get(slot) === offer) this.#handed.delete(slot);
      for (const { bucketCount, postingsGeneration, ...header } of missing) {
        const offer = handed.get(header.slot);
        if (offer && offer.postingsGeneration === postingsGeneration && offer.postings.size > 0)
          this.#handedPostings.set(header.slot, { postingsGeneration, buckets: offer.postings });
        const old = before?.get(header.slot);
        const { columns, versions } = assembleColumns(header.size, chunks.get(header.slot) ?? [], old);
        // The id order kept: its inverse too; the facet columns kept (a price delta): their counts too.
        const held = old?.segment;
        const idRank = held && held.columns.idOrder === columns.idOrder ? held.idRank : undefined;
        const facets = held && sameFacetColumns(columns, held.columns) ? held.facetCountsCell : undefined;
        const segment = new Segment(header, columns, idRank, facets);
        bySlot.set(header.slot, { segment, bucketCount, postingsGeneration, versions });
      }
    }
    const patched = (await patching) ?? new Map<number, PatchedVocabulary>();
    for (const [slot, { held, offer }] of handedChanges) {
      const vocabulary = held.vocabulary.patched(offer.letters, offer.digits);
      const changes = [offer.letters, offer.digits];
      if (patched !== CHANGED)
        patched.set(slot, { vocabulary, from: held.postingsGeneration, to: offer.postingsGeneration, changes });
      this.#vocabulariesHanded += 1;
    }
    if (patched !== CHANGED)
      for (const { slot, postingsGeneration } of changedWords) {
        const vocabulary = patched.get(slot);
        if (!vocabulary) continue;
        this.#keepVocabulary(slot, postingsGeneration, vocabulary.vocabulary);
        this.#carryPostings(slot, vocabulary);
        this.#vocabularyPatches += 1;
      }
    // Handed postings are kept while their slot has the postings generation they were written under.
    for (const [slot, kept] of this.#handedPostings)
      if (bySlot.get(slot)?.postingsGeneration !== kept.postingsGeneration) this.#handedPostings.delete(slot);
    const segments = [...bySlot.values()].map((s) => s.segment);
    return { generation, snapshot: new SegmentSnapshot(generation, segments, this.#dictionary), bySlot };
  }

  /** `row` (read without its data) with its data from the columns handed over in `offer`. */
  #handedChunk(offer: WrittenSegment, row: ChunkRow): ChunkRow {
    const column = offer.columns[row.name];
    const from = row.chunk * COLUMN_CHUNK;
    const length = Math.min(COLUMN_CHUNK, offer.size - from);
    // Left without data, a chunk beyond the columns fails in `assembleColumns` as one read would.
    if (length <= 0) return row;
    if (column.length !== offer.size)
      throw new RangeError(`column ${row.name} handed over holds ${column.length} elements, not ${offer.size}`);
    this.#chunksHanded += 1;
    return { ...row, data: chunkBytes(column.subarray(from, from + length), length) };
  }

  /**
   * Seqs (ascending) of the articles of the searched shops having every word; under default
   * matching (decision 0040) with the match class of each (undefined when all are exact): each
   * word stands for the indexed words of each segment's vocabulary it matches, their postings
   * united per word with the best class, the words intersected with the worst.
   */
  async #matches(
    db: Kysely<PostgresContentTables>,
    catalog: LoadedCatalog,
    query: SearchQuery,
  ): Promise<Matched | typeof CHANGED> {
    const shops = new Set(query.shopIds);
    const segments = [...catalog.bySlot.values()].filter(
      (s) => s.segment.size > 0 && (shops.size === 0 || shops.has(s.segment.shopId)),
    );
    const fuzzy = query.matching === 'default';
    const matchesBound = matchCacheSeqs(catalog.snapshot.articleCount);
    // The matches depend on nothing else: a segment's seqs are its slot's, its words and postings
    // those of its postings generation (a price delta keeps it, so the matches stay kept too).
    const asked = JSON.stringify([fuzzy, query.words]);
    const parts = new Map(
      segments.map((s) => [
        s.segment.header.slot,
        `${s.segment.header.slot}/${s.segment.size}/${s.postingsGeneration}`,
      ]),
    );
    const key = JSON.stringify([fuzzy, query.words, [...parts.values()]]);
    const kept = this.#matched.get(key);
    if (kept) {
      this.#matched.delete(key);
      this.#matched.set(key, kept);
      return kept;
    }
    const newest = this.#newestMatched.get(asked);
    const earlier = newest === undefined ? undefined : this.#matched.get(newest);
    const matched = await this.#matchesIn(db, catalog, segments, query.words, fuzzy, { asked, parts, earlier });
    if (matched !== CHANGED && matched.matches.length <= matchesBound) {
      // A concurrent search of the same words may have kept its own meanwhile.
      const twin = this.#matched.get(key);
      if (twin) this.#matchedSeqs -= twin.matches.length;
      this.#matched.delete(key);
      this.#matched.set(key, matched);
      this.#newestMatched.set(asked, key);
      this.#matchedSeqs += matched.matches.length;
      for (const [oldest, dropped] of this.#matched) {
        if (this.#matchedSeqs <= matchesBound && this.#matched.size <= MATCHES_CACHE_ENTRIES) break;
        this.#matched.delete(oldest);
        if (this.#newestMatched.get(dropped.asked) === oldest) this.#newestMatched.delete(dropped.asked);
        this.#matchedSeqs -= dropped.matches.length;
      }
    }
    return matched;
  }

  /**
   * `#matches` computed from the postings of `segments` (kept ones, the others read in one
   * statement). `earlier`: kept matches of the same words (`asked`) over other segments; the part
   * of each segment whose `parts` entry it shares (the same slot, size and postings generation:
   * a shop no delta changed since) is taken from there instead of matched again.
   */
  async #matchesIn(
    db: Kysely<PostgresContentTables>,
    catalog: LoadedCatalog,
    segments: readonly LoadedSegment[],
    queryWords: readonly string[],
    fuzzy: boolean,
    keys: {
      readonly asked: string;
      readonly parts: ReadonlyMap<number, string>;
      readonly earlier: Matched | undefined;
    },
  ): Promise<Matched | typeof CHANGED> {
    const { earlier } = keys;
    const carried = (s: LoadedSegment) => {
      const { slot } = s.segment.header;
      return earlier !== undefined && earlier.parts.get(slot) === keys.parts.get(slot);
    };
    const words = distinctQueryWords(queryWords);
    // Per segment, per query word: the indexed words it stands for, with their class.
    let plans: { s: LoadedSegment; words: { class: MatchClass; term: string }[][] }[];
    if (fuzzy) {
      const vocabularies = await this.#vocabularies(db, catalog, segments);
      if (vocabularies === CHANGED) return CHANGED;
      plans = segments.map((s, n) => ({
        s,
        words: words.map(({ word, last }) =>
          alternativesIn(vocabularies[n]!, word, last).flatMap((a) =>
            a.terms.map((term) => ({ class: a.class, term })),
          ),
        ),
      }));
    } else
      plans = segments.map((s) => ({ s, words: words.map(({ word }) => [{ class: MATCH_CLASS.exact, term: word }]) }));
    const keyOf = (s: LoadedSegment, word: string) => `${s.segment.header.slot}/${s.postingsGeneration}/${word}`;
    const wanted = new Map<string, { slot: number; bucket: number; keys: { key: string; word: string }[] }>();
    // The kept lists this search uses, taken now: concurrent searches may drop them from the
    // cache while this one waits for the postings it reads.
    const held = new Map<string, Uint32Array>();
    for (const { s, words: terms } of plans.filter((p) => !carried(p.s)))
      for (const { term: word } of terms.flat()) {
        const key = keyOf(s, word);
        const cached = this.#cached(key);
        if (cached) {
          held.set(key, cached);
          continue;
        }
        const bucket = bucketOf(word, s.bucketCount);
        const handed = this.#handedPostings.get(s.segment.header.slot);
        const bytes = handed?.postingsGeneration === s.postingsGeneration ? handed.buckets.get(bucket) : undefined;
        if (bytes) {
          this.#postingsHanded += 1;
          held.set(key, findPostings(bytes, word));
          continue;
        }
        const id = `${s.segment.header.slot}/${bucket}`;
        let entry = wanted.get(id);
        if (!entry) wanted.set(id, (entry = { slot: s.segment.header.slot, bucket, keys: [] }));
        if (!entry.keys.some((k) => k.key === key)) entry.keys.push({ key, word });
      }
    const fetched = new Map<string, Uint32Array>();
    if (wanted.size > 0) {
      const list = [...wanted.values()];
      const rows = await readBuckets(db, list);
      if (rows.generation !== catalog.generation) return CHANGED;
      const data = new Map(rows.buckets.map((r) => [`${r.slot}/${r.bucket}`, r.data]));
      for (const [id, entry] of wanted) {
        const bucket = data.get(id);
        for (const { key, word } of entry.keys)
          fetched.set(key, bucket ? findPostings(bucket, word) : new Uint32Array(0));
      }
    }
    const postingsOf = (s: LoadedSegment, word: string) => {
      const key = keyOf(s, word);
      const list = fetched.get(key) ?? held.get(key)!;
      this.#remember(key, list, catalog.snapshot.articleCount);
      return list;
    };
    const parts: { readonly base: number; readonly part: ClassifiedSeqs }[] = [];
    let total = 0;
    for (const { s, words: terms } of plans) {
      const base = s.segment.base;
      const part = carried(s)
        ? partOf(earlier!, base)
        : fuzzy
          ? intersectClassified(
              terms.map((alternatives) =>
                unionOfPositions(
                  alternatives.map((a) => ({ class: a.class, positions: postingsOf(s, a.term) })),
                  base,
                  s.segment.size,
                ),
              ),
            )
          : {
              seqs: seqsOf(intersectPostings(terms.map(([t]) => postingsOf(s, t!.term))), base),
              classes: undefined,
              exact: true,
            };
      parts.push({ base, part: part as ClassifiedSeqs });
      total += part.seqs.length;
    }
    // Concatenated in slot order, so the matches ascend (a delta may have put a patched segment
    // last in the loaded list; the search pass and class lookups need ascending seqs).
    parts.sort((a, b) => a.base - b.base);
    // Over `SharedArrayBuffer`s: kept, and posted to a search worker without a copy (decision 0051).
    const out = new Float64Array(new SharedArrayBuffer(total * Float64Array.BYTES_PER_ELEMENT));
    const classes = fuzzy ? new Uint8Array(new SharedArrayBuffer(total)) : undefined;
    let at = 0;
    for (const { part } of parts) {
      out.set(part.seqs, at);
      classes?.set(part.classes, at);
      at += part.seqs.length;
    }
    const matchedWords = new Set(plans.flatMap((p) => p.words.flat().map((t) => t.term)));
    // Parts all exact (as their merges tracked) need no scan of the classes.
    const exact = parts.every((p) => p.part.exact) || (classes !== undefined && allExact(classes));
    return {
      matches: out,
      classes: classes && !exact ? classes : undefined,
      words: matchedWords,
      asked: keys.asked,
      parts: keys.parts,
    };
  }

  /**
   * The vocabulary of each segment (in order), read from its buckets' stored words on first use and kept per
   * postings generation (a delta that leaves the words alone keeps it); those of segments no
   * longer loaded are dropped. A segment whose postings a delta patched gets the vocabulary held
   * for its slot patched with the counts of the words the delta changed (migration 0020), when
   * the deltas since that one recorded them all; otherwise its buckets' words are read again.
   */
  async #vocabularies(
    db: Kysely<PostgresContentTables>,
    catalog: LoadedCatalog,
    segments: readonly LoadedSegment[],
  ): Promise<SegmentVocabulary[] | typeof CHANGED> {
    const keyOf = (s: LoadedSegment) => `${s.segment.header.slot}/${s.postingsGeneration}`;
    let missing = segments.filter((s) => !this.#vocabulary.has(keyOf(s)));
    if (missing.length > 0) {
      const patched = await this.#patchedVocabularies(
        async <R>(query: RawBuilder<R>) => {
          const rows = await guarded<R & { slot: number }>(db, 'slot', query as RawBuilder<R & { slot: number }>);
          return rows.generation === catalog.generation ? rows.rows : CHANGED;
        },
        missing.map((s) => ({ slot: s.segment.header.slot, postingsGeneration: s.postingsGeneration })),
      );
      if (patched === CHANGED) return CHANGED;
      for (const s of missing) {
        const vocabulary = patched.get(s.segment.header.slot);
        if (!vocabulary) continue;
        this.#keepVocabulary(s.segment.header.slot, s.postingsGeneration, vocabulary.vocabulary);
        this.#carryPostings(s.segment.header.slot, vocabulary);
        this.#vocabularyPatches += 1;
      }
      missing = missing.filter((s) => !patched.has(s.segment.header.slot));
    }
    if (missing.length > 0) {
      // Each bucket's stored words (migration 0015); its postings only where a bucket has none.
      const slots = integerArray(
        missing.map((s) => s.segment.header.slot),
        'vocabularies',
      );
      const rows = await guardedCopy(
        db,
        `select slot, words, case when words is null then data end from content_postings
          where slot = any(${slots}::int[])`,
      );
      if (rows.generation !== catalog.generation) return CHANGED;
      const stored = new Map<number, Buffer[]>(missing.map((s) => [s.segment.header.slot, []]));
      for (const [slot, words, data] of rows.rows)
        if (slot) stored.get(slot.readInt32BE(0))?.push(words ?? bucketVocabulary(data ?? new Uint8Array(0)));
      const read = missing.map((s) => SegmentVocabulary.read(stored.get(s.segment.header.slot) ?? []));
      missing.forEach((s, n) => this.#keepVocabulary(s.segment.header.slot, s.postingsGeneration, read[n]!));
      groupDigitsAhead(read);
      this.#vocabularyReads += missing.length;
    }
    const live = new Set([...catalog.bySlot.values()].map(keyOf));
    for (const key of this.#vocabulary.keys()) if (!live.has(key)) this.#vocabulary.delete(key);
    return segments.map((s) => this.#vocabulary.get(keyOf(s))!.vocabulary);
  }

  /** The vocabulary held for `slot` that a patch starts from (the one kept last). */
  #heldVocabulary(slot: number): HeldVocabulary | undefined {
    let held: HeldVocabulary | undefined;
    for (const entry of this.#vocabulary.values()) if (entry.slot === slot) held = entry;
    return held;
  }

  #keepVocabulary(slot: number, postingsGeneration: string, vocabulary: SegmentVocabulary): void {
    this.#vocabulary.set(`${slot}/${postingsGeneration}`, { slot, postingsGeneration, vocabulary });
  }

  /**
   * The vocabularies of those of `segments` (by slot) that this reader holds one of for another
   * postings generation of the same slot, patched with the word counts each delta since recorded
   * (`content_vocabulary_changes`, followed back from the segment's generation to the one held).
   */
  async #patchedVocabularies(
    read: <R>(query: RawBuilder<R>) => Promise<R[] | typeof CHANGED>,
    segments: readonly { readonly slot: number; readonly postingsGeneration: string }[],
  ): Promise<Map<number, PatchedVocabulary> | typeof CHANGED> {
    const wanted = segments.flatMap((s) => {
      const base = this.#heldVocabulary(s.slot);
      return base ? [{ slot: s.slot, generation: s.postingsGeneration, held: base }] : [];
    });
    const patched = new Map<number, PatchedVocabulary>();
    if (wanted.length === 0) return patched;
    const rows = await read<{ slot: number; generation: string; previous: string; changes: string }>(
      sql`with recursive chain as (
          select c.slot, c.postings_generation, c.previous_generation, c.changes, w.held, 1 as depth
          from content_vocabulary_changes c
          join unnest(${wanted.map((w) => w.slot)}::int[], ${wanted.map((w) => w.generation)}::text[],
            ${wanted.map((w) => w.held.postingsGeneration)}::text[]) as w (slot, generation, held)
            on c.slot = w.slot and c.postings_generation = w.generation
          union all
          select c.slot, c.postings_generation, c.previous_generation, c.changes, chain.held, chain.depth + 1
          from content_vocabulary_changes c
          join chain on c.slot = chain.slot and c.postings_generation = chain.previous_generation
          where chain.previous_generation <> chain.held and chain.depth < ${MAX_VOCABULARY_STEPS}
        )
        select slot, postings_generation as generation, previous_generation as previous, changes from chain`,
    );
    if (rows === CHANGED) return CHANGED;
    const steps = new Map(rows.map((r) => [`${r.slot}/${r.generation}`, r]));
    for (const { slot, generation, held: base } of wanted) {
      const chain: string[] = [];
      for (let at = generation; at !== base.postingsGeneration;) {
        const step = steps.get(`${slot}/${at}`);
        if (!step || chain.length === MAX_VOCABULARY_STEPS) break;
        chain.unshift(step.changes);
        at = step.previous;
        if (at === base.postingsGeneration) {
          let vocabulary = base.vocabulary;
          const decoded: (readonly (readonly [string, number])[])[] = [];
          for (const changes of chain) {
            const [letters, digits] = decodeVocabularyChanges(changes);
            vocabulary = vocabulary.patched(letters, digits);
            decoded.push(letters, digits);
          }
          patched.set(slot, { vocabulary, from: base.postingsGeneration, to: generation, changes: decoded });
        }
      }
    }
    return patched;
  }

  /**
   * The kept postings of slot `slot` for postings generation `from`, taken over for `to`: each
   * word the deltas between them did not change (`changes`: every word whose postings a delta
   * rewrote, `patchPostgresSegment`) has the same positions in both, so it is kept under `to`
   * (in its place among the least recently used), and the changed ones are dropped. A search
   * of the new catalog then reads only the changed words it asks for.
   */
  #carryPostings(slot: number, { from, to, changes }: PatchedVocabulary): void {
    const prefix = `${slot}/${from}/`;
    // The kept words (a few hundred) less the changed ones (tens of thousands): no set of those.
    const unchanged = new Set<string>();
    for (const key of this.#postings.keys()) if (key.startsWith(prefix)) unchanged.add(key.slice(prefix.length));
    if (unchanged.size === 0) return;
    for (const list of changes) for (const [word] of list) unchanged.delete(word);
    const entries = [...this.#postings];
    this.#postings.clear();
    for (const [key, list] of entries) {
      if (!key.startsWith(prefix)) this.#postings.set(key, list);
      else if (unchanged.has(key.slice(prefix.length))) {
        this.#postings.set(`${slot}/${to}/${key.slice(prefix.length)}`, list);
        this.#postingsCarried += 1;
      }
    }
    // A search of the new generation may have kept some of the same words already: counted once.
    this.#cachedPositions = 0;
    for (const list of this.#postings.values()) this.#cachedPositions += list.length;
  }

  #cached(key: string): Uint32Array | undefined {
    return this.#postings.get(key);
  }

  /**
   * Keeps `list` under `key` as the most recently used, dropping the least recently used beyond
   * the bound for a catalog of `articles`.
   */
  #remember(key: string, list: Uint32Array, articles: number): void {
    const had = this.#postings.get(key);
    if (had) {
      this.#postings.delete(key);
      this.#cachedPositions -= had.length;
    }
    this.#postings.set(key, list);
    this.#cachedPositions += list.length;
    const bound =
      this.#postingsCachePositions ??
      Math.max(POSTINGS_CACHE_POSITIONS, POSTINGS_CACHE_POSITIONS_PER_ARTICLE * articles);
    for (const [old, dropped] of this.#postings) {
      if (this.#cachedPositions <= bound || old === key) break;
      this.#postings.delete(old);
      this.#cachedPositions -= dropped.length;
    }
  }
}

/**
 * One segment's words for default matching and suggestions, as SQLite holds the catalog's
 * (decision 0040, step 4): `words`, the words without digits, in a `TermDictionary`; the words
 * with digits (article ids, GTINs, part numbers: nearly all of a catalog's distinct words, and
 * typos never apply to them) only as the buckets' stored vocabularies, grouped for prefix
 * lookups (`PrefixGroups`) a slice at a time after the vocabulary is read (`groupDigits`), or
 * all at once by the first search whose last word has a digit (its prefix matches) before that.
 * A delta's changes patch both (`patched`); those of words with digits wait for the groups to be
 * made, from the buckets as first read.
 */
class SegmentVocabulary {
  readonly words: TermDictionary;
  /** The buckets' stored vocabularies, until the words with digits are grouped (then let go). */
  #stored: readonly Buffer[];
  /** Changes of words with digits since `#stored` was read, in order, while `#digits` is not built. */
  readonly #pending: readonly (readonly (readonly [string, number])[])[];
  #digits: PrefixGroups | undefined;
  /** The grouping of `#stored`'s words with digits under way; shared with the vocabularies patched from this one. */
  #grouping: PrefixGrouping | undefined;

  private constructor(
    stored: readonly Buffer[],
    words: TermDictionary | undefined,
    digits: PrefixGroups | undefined,
    pending: readonly (readonly (readonly [string, number])[])[],
    grouping?: PrefixGrouping,
  ) {
    this.#stored = stored;
    this.words = words ?? new TermDictionary(this.#entries(false));
    this.#digits = digits;
    this.#pending = pending;
    this.#grouping = digits ? undefined : grouping;
  }

  /** The vocabulary of the buckets' stored vocabularies `stored`. */
  static read(stored: readonly Buffer[]): SegmentVocabulary {
    return new SegmentVocabulary(stored, undefined, undefined, []);
  }

  /**
   * This vocabulary after a delta: each word without and with digits it changed, with its
   * article count now (0: gone).
   */
  patched(
    letters: readonly (readonly [string, number])[],
    digits: readonly (readonly [string, number])[],
  ): SegmentVocabulary {
    const built = this.#digits;
    return new SegmentVocabulary(
      built ? [] : this.#stored,
      this.words.patched(letters),
      built?.patched(digits),
      built ? [] : [...this.#pending, digits],
      this.#grouping,
    );
  }

  /** The words with digits, for prefix lookups (the rest of them grouped now when they are not yet). */
  get digits(): PrefixGroups {
    this.groupDigits(Infinity);
    return this.#digits!;
  }

  /**
   * Groups up to `words` more of the words with digits (`digits`), the stored vocabularies
   * decoded as the grouping reaches them; true once all are grouped (and the changes since applied).
   */
  groupDigits(words: number): boolean {
    if (this.#digits) return true;
    const stored = this.#stored;
    this.#grouping ??= new PrefixGrouping(
      (function* () {
        for (const vocabulary of stored) yield vocabularyDigitBytes(vocabulary);
      })(),
    );
    const groups = this.#grouping.step(words);
    if (!groups) return false;
    this.#digits = this.#pending.reduce((patched, changes) => patched.patched(changes), groups);
    this.#grouping = undefined;
    this.#stored = [];
    return true;
  }

  *#entries(digits: boolean): Generator<[string, number]> {
    for (const vocabulary of this.#stored) yield* vocabularyWords(vocabulary, digits ? 'digits' : 'letters');
  }
}

/**
 * The part of `matched` in the segment whose seqs start at `base` (one slot's range): its seqs
 * and classes (all exact when `matched` kept none) as views, not copies.
 */
function partOf(matched: Matched, base: number): ClassifiedSeqs {
  const { matches, classes } = matched;
  const from = lowerBound(matches, base);
  const to = lowerBound(matches, base + SLOT_SPAN);
  return {
    seqs: matches.subarray(from, to),
    classes: classes ? classes.subarray(from, to) : new Uint8Array(to - from),
    exact: classes === undefined,
  };
}

/**
 * Groups the words with digits of `vocabularies` (`SegmentVocabulary.groupDigits`) after the
 * search that read them, `DIGIT_WORDS_A_TURN` words per turn of the event loop: a later search
 * whose last word has a digit then finds them grouped instead of grouping half a million words
 * of each shop itself, and no search waits behind a whole shop's grouping (at 10 M articles it
 * held the thread for up to 5 s after a start).
 */
function groupDigitsAhead(vocabularies: readonly SegmentVocabulary[]): void {
  const next = (n: number) => {
    const vocabulary = vocabularies[n];
    if (!vocabulary) return;
    setImmediate(next, vocabulary.groupDigits(DIGIT_WORDS_A_TURN) ? n + 1 : n);
  };
  setImmediate(next, 0);
}

/** Words with digits grouped ahead per turn of the event loop (a few milliseconds' work). */
const DIGIT_WORDS_A_TURN = 8192;

/**
 * A recorded vocabulary change (`patchPostgresSegment`): the words without digits and those with
 * digits, each as words joined by line breaks and their article counts.
 */
function decodeVocabularyChanges(
  text: string,
): [letters: (readonly [string, number])[], digits: (readonly [string, number])[]] {
  const [letterWords, letterCounts, digitWords, digitCounts] = JSON.parse(text) as [string, number[], string, number[]];
  const pairs = (words: string, counts: readonly number[]) =>
    words === '' ? [] : words.split('\n').map((word, i) => [word, counts[i] ?? 0] as const);
  return [pairs(letterWords, letterCounts), pairs(digitWords, digitCounts)];
}

/**
 * The indexed words of `vocabulary` a word of `q` stands for (`wordAlternatives`); a word with a
 * digit matches as typed, and when last also the words it begins (at most `MAX_PREFIX_WORDS`),
 * as on SQLite.
 */
function alternativesIn(vocabulary: SegmentVocabulary, word: string, last: boolean): WordAlternative[] {
  if (!hasDigit(word)) return wordAlternatives(vocabulary.words, word, last);
  const alternatives: WordAlternative[] = [{ class: MATCH_CLASS.exact, terms: [word] }];
  if (last && [...word].length >= MIN_PREFIX_LETTERS) {
    const terms = vocabulary.digits.prefixed(word, MAX_PREFIX_WORDS).filter((t) => t !== word);
    if (terms.length > 0) alternatives.push({ class: MATCH_CLASS.prefix, terms });
  }
  return alternatives;
}

/**
 * Runs `query` (a select whose column `key` is never null) together with the catalog generation,
 * in one statement and so one snapshot: the generation comes back even when the query finds no row.
 */
/** The committed catalog's generation (`content_meta`), undefined before any import. */
async function catalogGeneration(db: SqlExecutor | Kysely<PostgresContentTables>): Promise<string | undefined> {
  const result = await sql<{ value: string }>`
    select meta_value as value from content_meta where meta_key = ${CATALOG_GENERATION_KEY}`.execute(db);
  return result.rows[0]?.value;
}

async function guarded<R>(
  db: Kysely<PostgresContentTables>,
  key: keyof R & string,
  query: RawBuilder<R>,
): Promise<{ generation: string | undefined; rows: R[] }> {
  const result = await sql<R & { generation__: string | null }>`
    select g.value as generation__, q.* from
      (select (select meta_value from content_meta where meta_key = ${CATALOG_GENERATION_KEY}) as value) g
      left join (${query}) q on true`.execute(db);
  return {
    generation: result.rows[0]?.generation__ ?? undefined,
    rows: result.rows.filter((r) => r[key] !== null),
  };
}

/**
 * `guarded` through binary COPY (`copyRowsOut`): the rows of `select` (SQL text without
 * parameters, which COPY does not take, and whose first column is never null) as each field's
 * bytes, with the catalog generation read in the same statement (so the same snapshot). A query's
 * result brings a bytea as hex text twice its size, which the server encodes and this process
 * decodes again: for postings buckets of hundreds of kilobytes at 10 M articles, most of a search's
 * time when its words were not read before.
 */
async function guardedCopy(
  db: Kysely<PostgresContentTables>,
  select: string,
): Promise<{ generation: string | undefined; rows: (Buffer | null)[][] }> {
  const rows = await copyRowsOut(
    db,
    `select g.value, q.* from
      (select (select meta_value from content_meta where meta_key = '${CATALOG_GENERATION_KEY}') as value) g
      left join (${select}) q on true`,
  );
  return {
    generation: rows[0]?.[0]?.toString('utf8'),
    rows: rows.filter((row) => row[1] !== null && row[1] !== undefined).map((row) => row.slice(1)),
  };
}

/** The postings buckets `wanted` (slot and bucket each), as `guardedCopy` reads them. */
async function readBuckets(
  db: Kysely<PostgresContentTables>,
  wanted: readonly { readonly slot: number; readonly bucket: number }[],
): Promise<{ generation: string | undefined; buckets: { slot: number; bucket: number; data: Buffer }[] }> {
  const slots = integerArray(
    wanted.map((w) => w.slot),
    'postings buckets',
  );
  const buckets = integerArray(
    wanted.map((w) => w.bucket),
    'postings buckets',
  );
  const { generation, rows } = await guardedCopy(
    db,
    `select p.slot, p.bucket, p.data from content_postings p
      join unnest(${slots}::int[], ${buckets}::int[]) as w (slot, bucket) on p.slot = w.slot and p.bucket = w.bucket`,
  );
  const read: { slot: number; bucket: number; data: Buffer }[] = [];
  for (const [slot, bucket, data] of rows)
    if (slot && bucket && data) read.push({ slot: slot.readInt32BE(0), bucket: bucket.readInt32BE(0), data });
  return { generation, buckets: read };
}

/**
 * The columns of a segment of `size` articles from its chunk rows (one slot, in name and chunk
 * order), and the version of each chunk. A row without data is a chunk `old` holds (its version
 * was asked for as known): it is copied from there.
 *
 * @throws RangeError when the chunks do not cover every column exactly, or a chunk without data
 *   is not in `old` at that version.
 */
export function assembleColumns(
  size: number,
  rows: readonly ChunkRow[],
  loaded: Pick<LoadedSegment, 'segment' | 'versions'> | undefined,
): { columns: SegmentColumns; versions: Map<ColumnName, number[]> } {
  const old = loaded?.segment;
  // A column whose every chunk `old` holds (none read) and of the same length is `old`'s array:
  // what was derived from it (the facet counts, the id ranks) carries over with it.
  const read = new Set<ColumnName>();
  const chunks = new Map<ColumnName, number>();
  for (const row of rows) {
    if (row.data) read.add(row.name);
    chunks.set(row.name, (chunks.get(row.name) ?? 0) + 1);
  }
  const kept = (name: ColumnName) => {
    const column = old?.columns[name];
    return column && column.length === size && size > 0 && !read.has(name) && chunks.get(name) === chunkCount(size)
      ? column
      : undefined;
  };
  const arrays = new Map<ColumnName, SegmentColumns[ColumnName]>(
    COLUMN_NAMES.map((name) => [name, kept(name) ?? sharedColumn(name, size)]),
  );
  const filled = new Map<ColumnName, number>(COLUMN_NAMES.map((name) => [name, 0]));
  const versions = new Map<ColumnName, number[]>(COLUMN_NAMES.map((name) => [name, []]));
  for (const row of rows) {
    const column = arrays.get(row.name);
    if (!column) continue;
    if (column === old?.columns[row.name]) {
      if (loaded?.versions.get(row.name)?.[row.chunk] !== row.version)
        throw new RangeError(`chunk ${row.chunk} of column ${row.name} is not loaded at version ${row.version}`);
      filled.set(row.name, filled.get(row.name)! + Math.min(COLUMN_CHUNK, size - row.chunk * COLUMN_CHUNK));
      versions.get(row.name)![row.chunk] = row.version;
      continue;
    }
    const from = row.chunk * COLUMN_CHUNK;
    const length = Math.min(COLUMN_CHUNK, size - from);
    if (length <= 0) throw new RangeError(`column ${row.name} has a chunk ${row.chunk} beyond ${size} elements`);
    const target = new Uint8Array(column.buffer, from * column.BYTES_PER_ELEMENT, length * column.BYTES_PER_ELEMENT);
    if (row.data) {
      if (row.data.byteLength !== target.byteLength)
        throw new RangeError(
          `chunk ${row.chunk} of column ${row.name} holds ${row.data.byteLength} bytes, not ${target.byteLength}`,
        );
      target.set(row.data);
    } else {
      const source = old?.columns[row.name];
      if (!source || source.length < from + length || loaded?.versions.get(row.name)?.[row.chunk] !== row.version)
        throw new RangeError(`chunk ${row.chunk} of column ${row.name} is not loaded at version ${row.version}`);
      target.set(new Uint8Array(source.buffer, source.byteOffset + from * source.BYTES_PER_ELEMENT, target.byteLength));
    }
    filled.set(row.name, filled.get(row.name)! + length);
    versions.get(row.name)![row.chunk] = row.version;
  }
  for (const [name, n] of filled)
    // A column an older release did not write (`OPTIONAL_COLUMNS`) stays zeros: no values.
    if (n !== size && !(n === 0 && OPTIONAL_COLUMNS.has(name)))
      throw new RangeError(`column ${name} has ${n} of ${size} elements`);
  return { columns: Object.fromEntries(arrays) as unknown as SegmentColumns, versions };
}

/** Chunks of a column of `size` elements. */
function chunkCount(size: number): number {
  return Math.ceil(size / COLUMN_CHUNK);
}
