import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ParsedCatalogItem } from '../import/catalog-parser.js';
import type { CatalogFormat } from '../model/catalog-format.js';
import type { ImportMode } from '../model/import-mode.js';
import type { BmecatTransaction } from '../import/bmecat-transaction.js';
import { parseCatalog } from '../import/parse-catalog.js';
import type { BusinessShop } from '../model/article.js';
import type { RecordViolation } from '../model/parse-article-record.js';
import type { IndexedArticle } from '../search/indexed-article.js';
import type { CatalogChange, SearchBackend } from '../search/search-backend.js';
import { CatalogParser, type RawCatalogItem } from '../import/catalog-parser.js';
import { isObject } from '@triad/common';
import { CatalogTextDecoder } from '../import/catalog-text-decoder.js';
import { ImportRefusedError, rejectRefusal, type RejectLimit } from './reject-limit.js';
import { resolveImportMode } from './resolve-import-mode.js';
import { shopPriceTerms } from '../model/shop-price-terms.js';
import { UnkeptElements } from '../import/unkept-elements.js';
import { bmecatViolation } from '../import/bmecat-paths.js';
import type { ImportWarning } from '../model/import-run.js';
import type { WaitingArticle } from '../model/waiting-article.js';
import type { CatalogHeader } from '../model/catalog-header.js';
import { byLine, ItemWarnings } from '../import/item-warnings.js';

export type { CatalogFormat } from '../model/catalog-format.js';
export type { ImportMode } from '../model/import-mode.js';

/** A record that was not imported: the 1-based line it starts on and why. */
export interface ImportFailure {
  readonly line: number;
  /** Why; for BMEcat in BMEcat's words (`bmecat-paths.ts`): element paths, not JSON pointers. */
  readonly violations: readonly RecordViolation[];
  /** The record's supplier article id (BMEcat `SUPPLIER_AID` / `SUPPLIER_PID`), when it has one. */
  readonly supplierArticleId?: string;
}

/** What every import reports: the records refused, by line (the first `maxFailuresListed`). */
interface ImportReport {
  /** What the import did, or would have done (`ImportCatalogOptions.mode`). */
  readonly mode: ImportMode;
  /** Records read (taken and refused). */
  readonly records: number;
  readonly failed: readonly ImportFailure[];
  /** Failures beyond those listed (the list is capped). */
  readonly failedNotListed: number;
  /** Records (articles or price changes) whose prices gave no tax and took the shop's `defaultTax`. */
  readonly defaultTaxUsed: number;
  /** Records by the BMEcat price type their prices were taken from (the shop's `priceTypes` chose). */
  readonly priceTypesUsed: Readonly<Record<string, number>>;
  /**
   * Records kept but not searchable: no price of theirs is valid now (ended, to come, without
   * `PRICE_AMOUNT` or tax, or none at all). Stored; searchable once a price is valid. Not refused.
   */
  readonly notSearchable: number;
  /**
   * BMEcat: what the file holds that Triad does not keep, and what the reader kept in another
   * form than the file gave it (a feature under its id), by kind and element path; and each record
   * kept not searchable (`not-searchable`, the first `maxFailuresListed`); in the order of their
   * first line.
   */
  readonly warnings: readonly ImportWarning[];
  /** BMEcat: which catalog the file is and who sent it, as its header says; null for JSON Lines. */
  readonly catalog: CatalogHeader | null;
}

/**
 * Outcome of an import. Committed: the shop's catalog was replaced by `imported` articles (the
 * `failed` records skipped) and `hash` is the shop's new content version. Not committed: the
 * import was refused whole (`refusal` says why, `failed` lists the refused records) and nothing
 * changed.
 */
export type ImportResult = ImportReport &
  (
    | {
        readonly committed: true;
        /** Articles stored (a replacement: the shop's count; a delta: added or replaced, or whose prices changed). */
        readonly imported: number;
        /** Articles a delta added; null for a replacement (it does not tell added from updated). */
        readonly added: number | null;
        /** Articles a delta replaced or whose prices it changed; null for a replacement. */
        readonly updated: number | null;
        /** Articles deleted by a delta. */
        readonly deleted: number;
        /** Deletes naming an article the shop did not hold (already as asked: not refused). */
        readonly alreadyAbsent: number;
        readonly hash: string;
      }
    | { readonly committed: false; readonly refusal: string; readonly imported: 0 }
  );

export interface ImportCatalogOptions {
  readonly format: CatalogFormat;
  /** The shop whose catalog the file replaces (its record is stored or replaced too). */
  readonly shop: BusinessShop;
  /** Called with the number of records read, every `progressEvery` records. */
  readonly onProgress?: (records: number) => void;
  readonly progressEvery?: number;
  /** Most failures listed in the result; default 1000. */
  readonly maxFailuresListed?: number;
  /** Where records are parsed: on a worker thread (default; two cores) or on the calling thread. */
  readonly parseThread?: 'worker' | 'inline';
  /**
   * Default: a BMEcat file's own mode (its transaction: `replace`, `products` or `prices`), and
   * `replace` for JSON Lines; a mode given must agree with the BMEcat file (`resolveImportMode`).
   * `replace`: the file is the shop's whole catalog. `upsert`: its articles are added or
   * replaced, the others stay. `delete`: its records (only `supplierArticleId` needed) are deleted.
   * `products`: each item's mode applied. `prices`: prices changed. An update or price change
   * naming no stored article is a refused record; a delete of such an article is counted in
   * `alreadyAbsent` (the shop is already as the file asks).
   */
  readonly mode?: ImportMode;
  /** Called once when another import holds the store and this one waits for it. */
  readonly onWait?: () => void;
  /** Longest wait for another import, ms (default 10 min); then StoreBusyError, nothing changed. */
  readonly maxWaitMs?: number;
  /** Refused records tolerated; default policy in `rejectRefusal` (empty shop, or more than 5 %). */
  readonly maxRejects?: RejectLimit;
  /** The moment prices must be valid at (their `valid_start_date`/`valid_end_date`); default: now. */
  readonly pricesValidAt?: Date;
}

/**
 * Imports a catalog file as the shop's new catalog, streaming: records are read, checked
 * (`parseArticleRecord`: required fields, decimals, unit codes) and indexed on a parse thread
 * while the store writes the ones before, never held together. A bad record (not JSON, a
 * violation, a repeated supplier article id) is reported with its line number and skipped; the
 * rest is imported, unless more records are refused than `maxRejects` allows: then the import
 * is refused whole and nothing is committed (`committed: false`). The replacement or delta is
 * one transaction, so readers see the old catalog or the new one.
 *
 * @throws XmlSyntaxError for malformed BMEcat, CatalogEncodingError (a kind of it) for bytes that
 *   are no text in the file's encoding (nothing is changed); ImportModeError when
 *   `mode` contradicts the file (nothing is changed); StoreBusyError when another import held
 *   the store longer than `maxWaitMs`; errors of the stream.
 */
export async function importCatalog(
  backend: Pick<SearchBackend, 'replaceShopCatalog' | 'applyShopDelta'>,
  input: Readable,
  options: ImportCatalogOptions,
): Promise<ImportResult> {
  const failed: ImportFailure[] = [];
  let failedNotListed = 0;
  const cap = options.maxFailuresListed ?? 1000;
  const fail = (line: number, violations: readonly RecordViolation[], supplierArticleId?: string) => {
    // A BMEcat record is reported by the elements the supplier wrote (decision 0034).
    const item = unkept?.itemName;
    // Two fields of the record from one element (description and descriptions) say it once.
    const said = item === undefined ? violations : uniqueViolations(violations.map((v) => bmecatViolation(v, item)));
    if (failed.length < cap)
      failed.push(
        supplierArticleId === undefined ? { line, violations: said } : { line, violations: said, supplierArticleId },
      );
    else failedNotListed += 1;
  };
  const every = options.progressEvery ?? 10_000;
  // BMEcat: the header is read (up to the first record) to learn the file's transaction first.
  let transaction = undefined as BmecatTransaction | undefined;
  let catalog: CatalogHeader | null = null;
  // Nothing of a BMEcat file is dropped without a word (decision 0034).
  const unkept = options.format === 'bmecat' ? new UnkeptElements() : undefined;
  const itemWarnings = new ItemWarnings();
  const warnings = () =>
    withWaiting(
      [...(unkept?.warnings() ?? []), ...itemWarnings.warnings()].sort(byLine),
      waitingWarnings,
      notSearchable,
    );
  // Whether the store counts the shop's words (`onCountsWords`): the parse workers count them then.
  let countWords = false;
  const parse = () =>
    parseCatalog(input, {
      format: options.format,
      shopId: options.shop.id,
      priceTerms: shopPriceTerms(options.shop, options.pricesValidAt),
      onTransaction: (t, header) => {
        transaction = t;
        catalog = header ?? null;
      },
      ...(unkept ? { unkept } : {}),
      ...(options.parseThread ? { thread: options.parseThread } : {}),
      countWords: () => countWords,
    });
  let source: AsyncGenerator<ParsedCatalogItem> | undefined;
  let first: IteratorResult<ParsedCatalogItem> | undefined;
  if (options.format === 'bmecat') {
    source = parse();
    first = await source.next();
  }
  let mode: ImportMode;
  try {
    mode = resolveImportMode(options.format, transaction, options.mode);
  } catch (error) {
    await source?.return(undefined);
    throw error;
  }
  async function* parsed(): AsyncGenerator<ParsedCatalogItem> {
    if (source === undefined) {
      yield* parse();
      return;
    }
    if (first && !first.done) yield first.value;
    yield* source;
  }
  // Lines of the changes handed to the store, until it has taken them (for what it reports).
  const lines = new WeakMap<object, number>();
  // The article last handed to a replacement and its line: a store reports a repeated id as it
  // takes the article, before the next (`onDuplicate`). No map entry per article: a `WeakMap` set
  // cost the writing thread 0.3-1.2 µs an article (decision 0053).
  let current: object | undefined;
  let currentLine = 0;
  let records = 0;
  let yielded = 0;
  let duplicates = 0;
  let defaultTaxUsed = 0;
  const priceTypesUsed: Record<string, number> = {};
  /** Counts the price decisions of a record taken (for the summary). */
  const priced = (priceType: string | undefined, taxFromShop: boolean | undefined) => {
    if (taxFromShop) defaultTaxUsed += 1;
    if (priceType !== undefined) priceTypesUsed[priceType] = (priceTypesUsed[priceType] ?? 0) + 1;
  };
  let notSearchable = 0;
  const waitingWarnings: ImportWarning[] = [];
  /** Counts a record kept not searchable, and says so in one warning (the first `cap` of them). */
  const kept = (line: number, waiting: WaitingArticle) => {
    notSearchable += 1;
    if (waitingWarnings.length < cap) waitingWarnings.push(notSearchableWarning(line, waiting, unkept?.itemName));
  };
  const counted = (line: number) => {
    records += 1;
    if (options.onProgress && records % every === 0) options.onProgress(records);
    return line;
  };
  /** Decides, once the store has taken every record and before it commits, whether it may commit. */
  const decide = () => {
    const refused = failed.length + failedNotListed;
    const after = mode === 'replace' ? yielded - duplicates : undefined;
    const refusal = rejectRefusal({ records, refused, shopArticlesAfter: after }, options.maxRejects);
    if (refusal !== undefined) throw new ImportRefusedError(refusal);
  };
  async function* articles(): AsyncGenerator<IndexedArticle | WaitingArticle> {
    for await (const item of parsed()) {
      counted(item.line);
      if ('violations' in item) fail(item.line, item.violations, item.supplierArticleId);
      // A whole catalog's records are articles only (`finishCatalogItem`); anything else is refused.
      else if ('waiting' in item) {
        current = item.waiting;
        currentLine = item.line;
        yielded += 1;
        kept(item.line, item.waiting);
        yield item.waiting;
      } else if (!('article' in item))
        fail(item.line, [{ path: '', message: `a ${item.change.kind} change in a whole catalog` }]);
      else {
        current = item.article;
        currentLine = item.line;
        yielded += 1;
        priced(item.priceType, item.taxFromShop);
        if (item.warnings) itemWarnings.add(item.line, item.warnings);
        yield item.article;
      }
    }
    decide();
  }
  /** Upserts (JSON Lines `upsert`), or the changes of a BMEcat update (`products`, `prices`). */
  async function* changes(): AsyncGenerator<CatalogChange> {
    for await (const item of parsed()) {
      counted(item.line);
      if ('violations' in item) {
        fail(item.line, item.violations, item.supplierArticleId);
        continue;
      }
      if ('waiting' in item) kept(item.line, item.waiting);
      const change: CatalogChange =
        'waiting' in item
          ? { kind: 'wait', article: item.waiting }
          : 'article' in item
            ? { kind: 'upsert', article: item.article }
            : item.change;
      if ('article' in item) priced(item.priceType, item.taxFromShop);
      else if ('change' in item && item.change.kind === 'prices')
        priced(item.change.prices.priceConditions?.priceType, item.change.prices.priceConditions?.taxFromShop);
      if (item.warnings) itemWarnings.add(item.line, item.warnings);
      lines.set(change, item.line);
      yielded += 1;
      yield change;
    }
  }
  /**
   * Delete records need only `supplierArticleId`; read on this thread (they are small), decoded as
   * every catalog is: bytes that are no text in the file's encoding refuse the file with their
   * line and column (`CatalogEncodingError`), never a replacement character in an id.
   */
  async function* deletes(): AsyncGenerator<CatalogChange> {
    const parser = new CatalogParser(options.format, unkept);
    const decoder = new CatalogTextDecoder(options.format === 'jsonl' ? 'json-lines' : 'xml');
    const take = function* (items: readonly RawCatalogItem[]): Generator<CatalogChange> {
      for (const item of items) {
        counted(item.line);
        const id = 'record' in item && isObject(item.record) ? item.record.supplierArticleId : undefined;
        if ('error' in item) fail(item.line, [{ path: item.path ?? '', message: item.error }]);
        else if (typeof id !== 'string' || id === '')
          fail(item.line, [{ path: '/supplierArticleId', message: 'must be a non-empty string' }]);
        else {
          const change: CatalogChange = { kind: 'delete', articleId: `${options.shop.id}:${id}` };
          lines.set(change, item.line);
          yielded += 1;
          yield change;
        }
      }
    };
    for await (const chunk of input as AsyncIterable<Buffer | string>)
      yield* take(parser.feed(decoder.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
    yield* take([...parser.feed(decoder.end()), ...parser.end()]);
  }
  const hash = randomBytes(8).toString('hex');
  const wait = {
    ...(options.onWait ? { onWait: options.onWait } : {}),
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  };
  let imported: number;
  let added: number | null = null;
  let updated: number | null = null;
  let deleted = 0;
  let alreadyAbsent = 0;
  try {
    if (mode === 'replace') {
      imported = await backend.replaceShopCatalog({
        shop: options.shop,
        articles: articles(),
        hash,
        ...wait,
        onCountsWords: () => {
          countWords = true;
        },
        onDuplicate: (article) => {
          duplicates += 1;
          fail(article === current ? currentLine : 0, [
            { path: '/supplierArticleId', message: `repeats ${article.supplierArticleId}` },
          ]);
        },
      });
    } else {
      const counts = await backend.applyShopDelta({
        shop: options.shop,
        changes: mode === 'delete' ? deletes() : changes(),
        hash,
        ...wait,
        // After the store has looked up every change: unknown articles are refused records too.
        beforeCommit: decide,
        onUnknown: (change) => {
          if (change.kind === 'delete') {
            alreadyAbsent += 1;
            return;
          }
          const id = change.kind === 'upsert' || change.kind === 'wait' ? change.article.id : change.articleId;
          fail(lines.get(change) ?? 0, [
            {
              path: '/supplierArticleId',
              message:
                `shop ${options.shop.id} has no article ${id.slice(id.indexOf(':') + 1)}: ` +
                'an update changes only articles the shop holds; import the article itself first',
            },
          ]);
        },
      });
      imported = counts.added + counts.updated;
      ({ added, updated, deleted } = counts);
    }
  } catch (error) {
    if (!(error instanceof ImportRefusedError)) throw error;
    failed.sort((a, b) => a.line - b.line);
    return {
      committed: false,
      refusal: error.message,
      imported: 0,
      mode,
      records,
      failed,
      failedNotListed,
      defaultTaxUsed,
      priceTypesUsed,
      notSearchable,
      warnings: warnings(),
      catalog,
    };
  }
  failed.sort((a, b) => a.line - b.line);
  return {
    warnings: warnings(),
    catalog,
    notSearchable,
    committed: true,
    imported,
    added,
    updated,
    deleted,
    alreadyAbsent,
    mode,
    records,
    failed,
    failedNotListed,
    defaultTaxUsed,
    priceTypesUsed,
    hash,
  };
}

/** The kind of the warning given for each record kept not searchable. */
export const NOT_SEARCHABLE_WARNING = 'not-searchable';

/**
 * The warning for a record kept not searchable: its supplier article id, since when it will be
 * searchable (a date alone when the ladder starts at midnight UTC) or that it waits for new
 * prices, and why, in the file's words.
 */
function notSearchableWarning(line: number, waiting: WaitingArticle, item: string | undefined): ImportWarning {
  const idName = item === undefined ? 'supplierArticleId' : item === 'PRODUCT' ? 'SUPPLIER_PID' : 'SUPPLIER_AID';
  const from = waiting.searchableFrom;
  const until =
    from === null
      ? 'until it has a price valid now'
      : `until ${from.endsWith('T00:00:00.000Z') ? from.slice(0, 10) : from}`;
  return {
    kind: NOT_SEARCHABLE_WARNING,
    path: item ?? '',
    count: 1,
    line,
    message: `${idName} ${waiting.supplierArticleId}: kept, not searchable ${until}: ${waiting.reason}`,
  };
}

/** The file's warnings and those of the records kept not searchable, by line; the ones not listed counted in one. */
function withWaiting(
  warnings: readonly ImportWarning[],
  waiting: readonly ImportWarning[],
  notSearchable: number,
): readonly ImportWarning[] {
  if (waiting.length === 0) return warnings;
  const all = [...warnings, ...waiting].sort((a, b) => a.line - b.line);
  const more = notSearchable - waiting.length;
  if (more > 0)
    all.push({
      kind: NOT_SEARCHABLE_WARNING,
      path: '',
      count: more,
      line: waiting[waiting.length - 1]?.line ?? 0,
      message: `and ${more} more records kept, not searchable`,
    });
  return all;
}

/** `violations` without repeats (the same path and message), in their order. */
function uniqueViolations(violations: readonly RecordViolation[]): readonly RecordViolation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.path}\n${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
