import type { Statement } from 'better-sqlite3';
import type { Article, BusinessShop } from '../../model/article.js';
import { decodeArticleDocument } from '../../model/article-document.js';
import type { MatchedWords, SearchPage, SearchQuery } from '../search-query.js';
import { FacetDictionary, type DictionaryEntry } from '../segments/facet-dictionary.js';
import {
  BYTE_ORDER,
  COLUMN_CHUNK,
  COLUMN_NAMES,
  joinChunks,
  OPTIONAL_COLUMNS,
  sharedColumn,
  SLOT_SPAN,
  type ColumnName,
  type SegmentColumns,
} from '../segments/segment-columns.js';
import { searchSegments } from '../segments/segment-search.js';
import { SegmentSnapshot } from '../segments/segment-snapshot.js';
import { sameFacetColumns, Segment, type SegmentHeader } from '../segments/segment.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { SHOP_HASH_END, SHOP_HASH_KEY } from '../shop-versions.js';
import { MatchCache, matchCacheSeqs, type EarlierList } from '../segments/match-cache.js';
import type { ShopWordCounts } from '../segments/shop-word-counts.js';
import { summedWordCounts } from '../segments/segment-vocabulary.js';
import { readSegmentWords } from './sqlite-catalog-writer.js';
import { textQueryExpression, type HandedWords, type TextQuery } from './handed-words.js';
import type { SegmentSearcher } from '../workers/search-worker-pool.js';
import { lowerBound, parseSeqList, shared } from '../segments/seq-list.js';
import { hasDigit, TermDictionary } from '../segments/term-dictionary.js';
import { EMPTY_SUGGESTIONS, suggestWords, type SuggestPage, type SuggestQuery } from '../suggest-words.js';
import {
  distinctQueryWords,
  intersectClassified,
  MATCH_CLASS,
  MIN_PREFIX_LETTERS,
  unionOfAlternatives,
  wordAlternatives,
  type ClassifiedSeqs,
} from '../segments/word-matching.js';

/** Attempts of a search whose catalog keeps changing under it before it gives up (`searchOn`). */
const SEARCH_ATTEMPTS = 5;

/** The articles having some query words, their classes, and the indexed words and prefixes they matched by. */
type WordsMatch = ClassifiedSeqs & { readonly terms: readonly string[]; readonly prefixes: readonly string[] };

/** `match` with its seqs and classes over `SharedArrayBuffer`s: posted to a search worker, they are not copied. */
function sharedMatch(match: WordsMatch): WordsMatch {
  return { ...match, seqs: shared(match.seqs), classes: shared(match.classes) };
}

/** Words versions whose segment generations are kept, to take an earlier match list's unchanged shops (`#fts5`). */
const GENERATIONS_KEPT = 4;

/** Most per-shop word counts kept for suggestions (they are dropped together, then counted again). */
const MAX_COUNTED_WORDS = 100_000;

/**
 * The read side of the SQLite store, on its own connection. Every call runs in one read
 * transaction, so it sees a single committed catalog even while an import writes the next one
 * (WAL). Segments are loaded when the content version changes, and only those whose generation
 * changed; statements are prepared once.
 */
export class SqliteCatalogReader {
  readonly #connection: SqliteConnection;
  readonly #statements = new Map<string, Statement>();
  readonly #dictionary = new FacetDictionary();
  #segments = new Map<number, Segment>();
  #snapshot: SegmentSnapshot | undefined;
  /**
   * The version of the words of `#snapshot` (`#wordsVersionNow`): what is read from the text
   * index (match lists, the vocabulary, per-shop word counts) is kept while it stays the same.
   */
  #wordsVersion = '';
  /** The vocabulary of the words of `version`, built on the first search that needs it. */
  #vocabulary: { version: string; dictionary: TermDictionary } | undefined;
  #vocabularyTable = false;
  /**
   * FTS5 match lists by query (issue 30: reading them was most of a search), kept while the words
   * stay: a price delta or a shop record changes the snapshot but not them.
   */
  readonly #matchCache = new MatchCache();
  /** Each segment's generation by slot, for the last few words versions (`#fts5` carries lists by them). */
  readonly #generationsOf = new Map<string, ReadonlyMap<number, string>>();
  /** The words of this process's last delta of each slot (`handOver`), by slot. */
  readonly #handed = new Map<number, HandedWords>();
  #textIndexReads = 0;
  #carriedLists = 0;
  #handedLists = 0;
  #vocabularyBuilds = 0;
  readonly #inTransaction: <T>(work: () => T) => T;

  constructor(connection: SqliteConnection) {
    this.#connection = connection;
    const transaction = connection.transaction((work: () => unknown) => work());
    this.#inTransaction = <T>(work: () => T) => transaction(work) as T;
  }

  /**
   * Queries of the text index run so far (match lists, and the vocabulary when a segment has no
   * stored words), for tests and statistics.
   */
  get textIndexReads(): number {
    return this.#textIndexReads;
  }

  /**
   * Match lists taken over from the words version before for the shops a delta left alone, only
   * the others read from the text index (`#fts5`), for tests and statistics.
   */
  get carriedLists(): number {
    return this.#carriedLists;
  }

  /**
   * Parts of match lists taken from the words a delta of this process handed over (`handOver`)
   * instead of the text index, for tests and statistics.
   */
  get handedLists(): number {
    return this.#handedLists;
  }

  /**
   * The words a delta of this process wrote to one shop, after its commit: match lists of the
   * words before it then take that shop's part from them, where they would read the text index
   * over the whole shop. Used only for the exact generation change it describes.
   */
  handOver(words: HandedWords): void {
    this.#handed.set(words.slot, words);
  }

  /** Vocabularies built so far (one per words version that needed one), for tests and statistics. */
  get vocabularyBuilds(): number {
    return this.#vocabularyBuilds;
  }

  search(query: SearchQuery): SearchPage {
    return this.#inTransaction(() => {
      const { snapshot, matches, classes, matched } = this.#matchesOf(query);
      const result = searchSegments({ snapshot, query, matches, classes });
      const hits = result.hits(this.#descriptions(result.descriptionSeqs));
      return this.#page(result, hits, matched);
    });
  }

  /**
   * `search` with the search pass on `searcher` (worker threads, decision 0051): the matching and
   * the reads each in a read transaction of their own, the pass outside them. A read that finds
   * another catalog committed than the one matched starts the search again on it.
   */
  async searchOn(searcher: SegmentSearcher, query: SearchQuery): Promise<SearchPage> {
    for (let attempt = 1; ; attempt += 1) {
      const { snapshot, matches, classes, matched } = this.#inTransaction(() => this.#matchesOf(query));
      const pass = await searcher.search({ snapshot, query, matches, classes });
      const same = () => this.currentHash() === snapshot.hash;
      const descriptions = this.#inTransaction(() => (same() ? this.#descriptions(pass.descriptionSeqs) : undefined));
      if (descriptions) {
        const hits = await pass.hits(descriptions);
        const page = this.#inTransaction(() => (same() ? this.#page(pass, hits, matched) : undefined));
        if (page) return page;
      }
      if (attempt === SEARCH_ATTEMPTS)
        throw new Error(`the catalog changed during each of ${SEARCH_ATTEMPTS} attempts of a search`);
    }
  }

  /** The content hash of the catalog loaded (undefined before the first load), for tests and statistics. */
  get loadedHash(): string | undefined {
    return this.#snapshot?.hash;
  }

  /** Loads the committed catalog's segments and vocabulary ahead of searches (`keepLoaded`). */
  preload(): void {
    this.#inTransaction(() => {
      this.#refresh();
      this.#words();
    });
  }

  /** The snapshot and the query's matches in it. Call inside a transaction. */
  #matchesOf(query: SearchQuery): {
    snapshot: SegmentSnapshot;
    matches: Float64Array | undefined;
    classes: Uint8Array | undefined;
    matched: MatchedWords | undefined;
  } {
    const snapshot = this.#refresh();
    const found =
      query.words.length === 0
        ? { matches: undefined, classes: undefined, matched: undefined }
        : query.matching === 'default'
          ? this.#classifiedMatches(query.words)
          : {
              matches: this.#matches(query.words),
              classes: undefined,
              matched: { words: new Set(query.words), prefixes: [] },
            };
    return { snapshot, ...found };
  }

  #descriptions(seqs: readonly number[]): Map<number, string> {
    return this.#bySeq(
      'select seq as k, description as v from content_articles where seq in (select value from json_each(?))',
      seqs,
    );
  }

  /** The page of `hits` (their documents read). Call inside a transaction. */
  #page(
    result: { readonly total: number; readonly facets: SearchPage['facets'] },
    hits: readonly { readonly seq: number; readonly score: number }[],
    matched: MatchedWords | undefined,
  ): SearchPage {
    const seqs = JSON.stringify(hits.map((h) => h.seq));
    const rows =
      hits.length === 0
        ? []
        : (this.#statement(
            'select seq, article_id, document from content_articles where seq in (select value from json_each(?))',
          )
            .raw()
            .all(seqs) as [number, string, string][]);
    const articles = new Map(rows.map(([seq, id, document]) => [seq, decodeArticleDocument(document, id)]));
    return {
      total: result.total,
      facets: result.facets,
      hits: hits.map((hit) => ({ article: articles.get(hit.seq)!, score: hit.score })),
      ...(matched ? { matched } : {}),
    };
  }

  findArticle(id: string): Article | undefined {
    const document = this.#statement('select document from content_articles where article_id = ?').pluck().get(id) as
      string | undefined;
    return document === undefined ? undefined : decodeArticleDocument(document, id);
  }

  countArticles(): number {
    return this.#inTransaction(() => this.#refresh().articleCount);
  }

  listShops(limit: number, offset: number): { total: number; shops: BusinessShop[] } {
    return this.#inTransaction(() => {
      const rows = this.#statement('select document from content_shops order by shop_id limit ? offset ?')
        .pluck()
        .all(limit, offset) as string[];
      const total = this.#statement('select count(*) from content_shops').pluck().get() as number;
      return { total, shops: rows.map((r) => JSON.parse(r) as BusinessShop) };
    });
  }

  findShop(id: string): BusinessShop | undefined {
    const document = this.#statement('select document from content_shops where shop_id = ?').pluck().get(id) as
      string | undefined;
    return document === undefined ? undefined : (JSON.parse(document) as BusinessShop);
  }

  currentHash(): string | undefined {
    return this.#statement("select meta_value from content_meta where meta_key = 'current_hash'").pluck().get() as
      string | undefined;
  }

  shopVersions(): Map<string, string> {
    const rows = this.#statement('select meta_key, meta_value from content_meta where meta_key >= ? and meta_key < ?')
      .raw()
      .all(SHOP_HASH_KEY, SHOP_HASH_END) as [string, string][];
    return new Map(rows.map(([key, hash]) => [key.slice(SHOP_HASH_KEY.length), hash]));
  }

  /** Articles of a shop holding a word, counted by FTS5 for suggestions, per words version (see `suggest`). */
  #shopHits: { version: string; counts: Map<string, number> } | undefined;
  /** Each segment's stored words (none stored: null), by slot, for the generation read. */
  readonly #segmentWords = new Map<number, { generation: string; words: ShopWordCounts | null }>();

  /**
   * Suggestions in the words of the shops asked for (`suggestWords`). The vocabulary is the
   * catalog's: when those shops hold every article its counts are theirs; otherwise the
   * candidates' counts are taken per shop from the segment's stored words, or for a segment stored
   * without them (before migration 0016) with FTS5 over the shop's seq range, kept until the
   * catalog changes.
   */
  suggest(query: SuggestQuery): SuggestPage {
    return this.#inTransaction(() => {
      const snapshot = this.#refresh();
      const asked = new Set(query.shopIds);
      const segments = snapshot.segments.filter((s) => s.size > 0 && (asked.size === 0 || asked.has(s.shopId)));
      if (segments.length === 0) return EMPTY_SUGGESTIONS;
      const dictionary = this.#words();
      if (segments.reduce((n, s) => n + s.size, 0) === snapshot.articleCount)
        return suggestWords([{ dictionary }], query.q, query.limit);
      if (this.#shopHits?.version !== this.#wordsVersion || this.#shopHits.counts.size > MAX_COUNTED_WORDS)
        this.#shopHits = { version: this.#wordsVersion, counts: new Map() };
      const { counts } = this.#shopHits;
      const stored = this.#storedWords(snapshot, segments);
      const count = this.#statement(
        'select count(*) from content_article_words ' +
          'where content_article_words match ? and rowid >= ? and rowid < ?',
      ).pluck();
      const shopHits = (term: string) => {
        let hits = 0;
        for (const [index, segment] of segments.entries()) {
          const words = stored[index];
          if (words) {
            hits += words.get(term);
            continue;
          }
          const key = `${segment.header.slot}/${term}`;
          let n = counts.get(key);
          if (n === undefined) {
            n = count.get(`"${term.replaceAll('"', '""')}"`, segment.base, segment.base + segment.size) as number;
            counts.set(key, n);
          }
          hits += n;
        }
        return hits;
      };
      return suggestWords([{ dictionary, shopHits }], query.q, query.limit);
    });
  }

  /** The stored words of each of `segments` (of `snapshot`), null for one stored without them. */
  #storedWords(snapshot: SegmentSnapshot, segments: readonly Segment[]): (ShopWordCounts | null)[] {
    const live = new Set(snapshot.segments.map((s) => s.header.slot));
    for (const slot of this.#segmentWords.keys()) if (!live.has(slot)) this.#segmentWords.delete(slot);
    return segments.map(({ header: { slot, generation } }) => {
      const kept = this.#segmentWords.get(slot);
      if (kept?.generation === generation) return kept.words;
      const words = readSegmentWords((text) => this.#statement(text), slot, generation) ?? null;
      this.#segmentWords.set(slot, { generation, words });
      return words;
    });
  }

  #statement(text: string): Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.#connection.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  /** The snapshot of the committed catalog; reloads what changed. Call inside a transaction. */
  #refresh(): SegmentSnapshot {
    const hash = this.currentHash();
    if (this.#snapshot && this.#snapshot.hash === hash) return this.#snapshot;
    const entries = this.#statement(
      'select value_key as key, facet_name as facet, value, label from content_facet_values ' +
        'where value_key > ? order by value_key',
    ).all(this.#dictionary.maxKey) as DictionaryEntry[];
    for (const entry of entries) this.#dictionary.add(entry);
    const headers = this.#statement(
      'select slot, shop_id as shopId, generation, article_count as size, word_total as wordTotal, ' +
        'byte_order as byteOrder from content_segments order by slot',
    ).all() as (SegmentHeader & { byteOrder: string })[];
    const segments = new Map<number, Segment>();
    for (const { byteOrder, ...header } of headers) {
      const loaded = this.#segments.get(header.slot);
      if (loaded && loaded.header.generation === header.generation) segments.set(header.slot, loaded);
      else {
        if (byteOrder !== BYTE_ORDER)
          throw new Error(
            `segment of shop ${header.shopId} was stored with byte order ${byteOrder}, ` +
              `this machine uses ${BYTE_ORDER}: import the catalog again`,
          );
        segments.set(header.slot, this.#loadSegment(header, loaded));
      }
    }
    this.#segments = segments;
    for (const [slot, handed] of this.#handed)
      if (segments.get(slot)?.header.generation !== handed.to) this.#handed.delete(slot);
    for (const slot of this.#chunkVersions.keys()) if (!segments.has(slot)) this.#chunkVersions.delete(slot);
    this.#wordsVersion = this.#wordsVersionNow();
    // The newest generations of this words version: its lists are the same under any of its snapshots.
    this.#generationsOf.delete(this.#wordsVersion);
    this.#generationsOf.set(this.#wordsVersion, new Map(headers.map((h) => [h.slot, h.generation])));
    for (const version of this.#generationsOf.keys()) {
      if (this.#generationsOf.size <= GENERATIONS_KEPT) break;
      this.#generationsOf.delete(version);
    }
    this.#snapshot = new SegmentSnapshot(hash, [...segments.values()], this.#dictionary);
    this.#matchCache.maxSeqs = matchCacheSeqs(this.#snapshot.articleCount);
    return this.#snapshot;
  }

  /**
   * The version of the indexed words as committed: FTS5's averages record (rows and tokens) and
   * structure record (whose write counter grows with every segment FTS5 writes, so with every
   * transaction that adds or removes a row's words), as one string. A delta of prices alone or a
   * shop record leaves both as they were.
   */
  #wordsVersionNow(): string {
    const records = this.#statement('select block from content_article_words_data where id in (1, 10) order by id')
      .pluck()
      .all() as Buffer[];
    return records.map((r) => r.toString('base64')).join(' ');
  }

  /** Version of each chunk (`name/chunk`; null: none) of each loaded segment's columns, by slot. */
  readonly #chunkVersions = new Map<number, Map<string, string | null>>();
  #chunkReads = 0;

  /** Column chunks read from the store so far (a changed segment's), for tests and statistics. */
  get chunkReads(): number {
    return this.#chunkReads;
  }

  /**
   * The segment `header` names, `loaded` being the one this slot held before (decision 0052): a
   * column whose chunks all kept their version is taken from it as it is, the others are put
   * together from the chunks that kept theirs (copied from it) and the others, read again. A
   * chunk without a version is always read.
   */
  #loadSegment(header: SegmentHeader, loaded: Segment | undefined): Segment {
    const stored = this.#statement(
      'select name, chunk, version from content_segment_columns where slot = ? order by name, chunk',
    ).all(header.slot) as { name: ColumnName; chunk: number; version: string | null }[];
    const held = loaded ? this.#chunkVersions.get(header.slot) : undefined;
    const versions = new Map<string, string | null>();
    const byName = new Map<ColumnName, { chunk: number; kept: boolean }[]>(COLUMN_NAMES.map((n) => [n, []]));
    for (const { name, chunk, version } of stored) {
      const key = `${name}/${chunk}`;
      versions.set(key, version);
      byName.get(name)?.push({ chunk, kept: version !== null && held?.get(key) === version });
    }
    const read = this.#statement(
      'select data from content_segment_columns where slot = ? and name = ? and chunk = ?',
    ).pluck();
    const chunks = new Map<ColumnName, Uint8Array[]>();
    const same = new Map<ColumnName, SegmentColumns[ColumnName]>();
    for (const [name, list] of byName) {
      const old = loaded?.columns[name];
      if (old && loaded.size === header.size && list.length > 0 && list.every((c) => c.kept)) {
        same.set(name, old);
        continue;
      }
      chunks.set(
        name,
        list.map(({ chunk, kept }) => {
          const from = chunk * COLUMN_CHUNK;
          if (old && kept && from < old.length) {
            const to = Math.min(from + COLUMN_CHUNK, old.length);
            return new Uint8Array(
              old.buffer,
              old.byteOffset + from * old.BYTES_PER_ELEMENT,
              (to - from) * old.BYTES_PER_ELEMENT,
            );
          }
          this.#chunkReads += 1;
          return read.get(header.slot, name, chunk) as Buffer;
        }),
      );
    }
    const fresh = columnsOf(header.size, chunks);
    const columns = Object.fromEntries(
      COLUMN_NAMES.map((name) => [name, same.get(name) ?? fresh(name)]),
    ) as unknown as SegmentColumns;
    this.#chunkVersions.set(header.slot, versions);
    // The id order kept: its inverse too; the facet columns kept (a price delta): their whole-segment counts too.
    const facets = loaded && sameFacetColumns(columns, loaded.columns) ? loaded.facetCountsCell : undefined;
    return new Segment(header, columns, same.has('idOrder') ? loaded?.idRank : undefined, facets);
  }

  /** Seqs whose words include every word (FTS5, quoted so operators in user text stay words), ascending. */
  #matches(words: readonly string[]): Float64Array {
    // One word is the same query as `#matchesAny` of it: one list for both.
    if (words.length === 1) return this.#matchesAny(words);
    const query = { terms: words, prefix: false, every: true };
    return this.#matchCache.get(this.#wordsVersion, textQueryExpression(query), (earlier) =>
      this.#fts5(query, earlier),
    );
  }

  /**
   * Rowids (seqs) matching `query` in the text index, ascending: one string from SQLite, parsed
   * over a `SharedArrayBuffer`, so a list kept or posted to a search worker is never copied.
   */
  #fts5(query: TextQuery, earlier?: EarlierList): Float64Array {
    const expression = textQueryExpression(query);
    const segments = earlier ? this.#segmentsSince(earlier.version) : [];
    if (!earlier || segments.length === 0) {
      this.#textIndexReads += 1;
      const list = this.#statement(
        'select group_concat(rowid) from content_article_words where content_article_words match ?',
      )
        .pluck()
        .get(expression) as string | null;
      return parseSeqList(list ?? '', 'shared');
    }
    // The list of the words version before for the segments that kept their generation since (their
    // rows of the text index are the same: every write of a shop's words gives its segment a new
    // generation), the text index read only over the others' slots, one statement each. Seqs of a
    // slot without a segment are left out: a search passes over them (`searchSegments`). A segment
    // this process's delta changed since takes its words as handed over (`handOver`), when the
    // delta started from the generation the earlier list saw.
    this.#carriedLists += 1;
    const range = this.#statement(
      'select group_concat(rowid) from content_article_words ' +
        'where content_article_words match ? and rowid >= ? and rowid < ?',
    ).pluck();
    const parts: Float64Array[] = [];
    for (const segment of segments) {
      const base = segment.header.slot * SLOT_SPAN;
      if (segment.kept) {
        parts.push(earlier.seqs.subarray(lowerBound(earlier.seqs, base), lowerBound(earlier.seqs, base + SLOT_SPAN)));
        continue;
      }
      const part = segment.handed?.part(query, earlier.seqs);
      if (part) {
        this.#handedLists += 1;
        parts.push(part);
      } else {
        this.#textIndexReads += 1;
        parts.push(parseSeqList((range.get(expression, base, base + SLOT_SPAN) as string | null) ?? ''));
      }
    }
    const out = new Float64Array(
      new SharedArrayBuffer(parts.reduce((n, p) => n + p.length, 0) * Float64Array.BYTES_PER_ELEMENT),
    );
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /**
   * The snapshot's segments by slot, ascending, each `kept` when it has the same generation now
   * as under words `version`, `handed` the words a delta of this process handed over from that
   * generation to the one now; none when no segment is kept or handed over, or that version's
   * generations are no longer known. Call after `#refresh`.
   */
  #segmentsSince(
    version: object | string,
  ): { readonly header: SegmentHeader; readonly kept: boolean; readonly handed: HandedWords | undefined }[] {
    const then = typeof version === 'string' ? this.#generationsOf.get(version) : undefined;
    if (!then || !this.#snapshot) return [];
    const segments = this.#snapshot.segments
      .map(({ header }) => {
        const handed = this.#handed.get(header.slot);
        return {
          header,
          kept: then.get(header.slot) === header.generation,
          handed: handed?.to === header.generation && handed.from === then.get(header.slot) ? handed : undefined,
        };
      })
      .sort((a, b) => a.header.slot - b.header.slot);
    return segments.some((s) => s.kept || s.handed) ? segments : [];
  }

  /**
   * Seqs having every word under default matching (decision 0040), ascending, with the match
   * class of each (undefined when all are exact): per word, one FTS5 query per class of the
   * indexed words it stands for, the classes united and the words intersected here. The
   * intersection of several words is kept like a word's matches (`MatchCache.kept`), as the
   * PostgreSQL reader keeps its matches per words: it depends on the words and the words version only.
   * What is kept and posted to search workers is over `SharedArrayBuffer`s (`shared`).
   */
  #classifiedMatches(words: readonly string[]): {
    matches: Float64Array;
    classes: Uint8Array | undefined;
    matched: MatchedWords;
  } {
    const distinct = distinctQueryWords(words);
    const [first] = distinct;
    // Keys of `#matches` start with a quote, of `#matchesAny` with `OR`, of one word with `W`, of
    // several with `A`: the kinds never meet.
    const all: WordsMatch =
      distinct.length === 1 && first
        ? this.#wordMatchKept(first.word, first.last)
        : this.#matchCache.kept(this.#wordsVersion, `A ${JSON.stringify(distinct)}`, () => {
            const perWord = distinct.map(({ word, last }) => this.#wordMatchKept(word, last));
            return sharedMatch({
              ...intersectClassified(perWord),
              terms: perWord.flatMap((match) => match.terms),
              prefixes: perWord.flatMap((match) => match.prefixes),
            });
          });
    return {
      matches: all.seqs,
      classes: all.exact ? undefined : all.classes,
      matched: { words: new Set(all.terms), prefixes: all.prefixes },
    };
  }

  /** `#wordMatch`, kept per words version with the lists. */
  #wordMatchKept(word: string, last: boolean): WordsMatch {
    return this.#matchCache.kept(this.#wordsVersion, `W${last ? '*' : ''} ${word}`, () =>
      sharedMatch(this.#wordMatch(word, last)),
    );
  }

  /**
   * The articles one query word matches under default matching, with their classes: one FTS5
   * query per class of the indexed words it stands for, the classes united. Kept per words
   * version with the lists (`MatchCache.kept`), so a word asked again is not merged again.
   */
  #wordMatch(word: string, last: boolean): WordsMatch {
    const terms: string[] = [];
    // Words with a digit (ids, GTINs, part numbers: most of the vocabulary) are not in the
    // dictionary: they match as typed, and when last by FTS5's own prefix query.
    if (hasDigit(word)) {
      const prefix = last && [...word].length >= MIN_PREFIX_LETTERS;
      const union = unionOfAlternatives([
        { class: MATCH_CLASS.exact, seqs: this.#matchesAny([word]) },
        ...(prefix ? [{ class: MATCH_CLASS.prefix, seqs: this.#matchesAny([word], '*') }] : []),
      ]);
      return { ...union, terms: [word], prefixes: prefix ? [word] : [] };
    }
    const alternatives = wordAlternatives(this.#words(), word, last).map((alternative) => {
      terms.push(...alternative.terms);
      return { class: alternative.class, seqs: this.#matchesAny(alternative.terms) };
    });
    return { ...unionOfAlternatives(alternatives), terms, prefixes: [] };
  }

  /**
   * The indexed words without digits of the current snapshot's catalog, built again when the
   * words changed: summed from the segments' stored words (`content_segment_words`), or when a
   * segment with articles has none stored (stored before migration 0016) read from the text index.
   */
  #words(): TermDictionary {
    const version = this.#wordsVersion;
    if (this.#vocabulary?.version === version) return this.#vocabulary.dictionary;
    this.#vocabularyBuilds += 1;
    const dictionary = new TermDictionary(this.#segmentVocabulary() ?? this.#textIndexVocabulary());
    this.#vocabulary = { version, dictionary };
    return dictionary;
  }

  /**
   * The vocabulary summed from the stored words of the snapshot's segments (issue 30: counting
   * each word's articles in the text index read every word's list, 2.4-3.1 s at 10 M articles);
   * undefined when a segment with articles has none stored for its generation. Call inside a transaction.
   */
  #segmentVocabulary(): Map<string, number> | undefined {
    const snapshot = this.#refresh();
    const stored = this.#storedWords(
      snapshot,
      snapshot.segments.filter((segment) => segment.size > 0),
    );
    const words: ShopWordCounts[] = [];
    for (const part of stored) {
      if (!part) return undefined;
      words.push(part);
    }
    return summedWordCounts(words);
  }

  /**
   * The vocabulary as FTS5 counts it (its vocabulary from `a` on, so numbers are skipped by the
   * index, words with digits left out). Call inside a transaction.
   */
  #textIndexVocabulary(): Map<string, number> {
    if (!this.#vocabularyTable) {
      // A table of the connection's own temporary schema: the reader stays query-only for the catalog.
      this.#connection.pragma('query_only = OFF');
      try {
        this.#connection.exec(
          'create virtual table if not exists temp.content_word_vocabulary ' +
            "using fts5vocab(main, 'content_article_words', 'row')",
        );
      } finally {
        this.#connection.pragma('query_only = ON');
      }
      this.#vocabularyTable = true;
    }
    this.#textIndexReads += 1;
    const rows = this.#statement("select term, doc from temp.content_word_vocabulary where term >= 'a'")
      .raw()
      .all() as [string, number][];
    return new Map(rows.filter(([term]) => !hasDigit(term)));
  }

  /**
   * The current catalog's vocabulary both ways: summed from the segments' stored words (undefined
   * when one has none) and as the text index counts it, for tests that compare the two.
   */
  vocabularies(): { segments: Map<string, number> | undefined; textIndex: Map<string, number> } {
    return this.#inTransaction(() => {
      this.#refresh();
      return { segments: this.#segmentVocabulary(), textIndex: this.#textIndexVocabulary() };
    });
  }

  /** Seqs whose words include any of `terms` (FTS5; with `prefix` `*`, words starting with one), ascending. */
  #matchesAny(terms: readonly string[], prefix: '' | '*' = ''): Float64Array {
    const query = { terms, prefix: prefix === '*', every: false };
    // Keys of `#matches` start with a quote: the two kinds never meet.
    return this.#matchCache.get(this.#wordsVersion, `OR ${textQueryExpression(query)}`, (earlier) =>
      this.#fts5(query, earlier),
    );
  }

  #bySeq(text: string, seqs: readonly number[]): Map<number, string> {
    if (seqs.length === 0) return new Map();
    const rows = this.#statement(text).raw().all(JSON.stringify(seqs)) as [number, string][];
    return new Map(rows);
  }
}

/** Column `name` of a segment of `size` articles from `chunks` (a column without any: zeros if optional). */
function columnsOf(
  size: number,
  chunks: ReadonlyMap<ColumnName, readonly Uint8Array[]>,
): (name: ColumnName) => SegmentColumns[ColumnName] {
  return (name) => {
    const list = chunks.get(name) ?? [];
    return list.length === 0 && OPTIONAL_COLUMNS.has(name) ? sharedColumn(name, size) : joinChunks(name, size, list);
  };
}
