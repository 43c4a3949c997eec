import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CatalogFormat } from '../import/catalog-parser.js';
import { parseCatalog } from '../import/parse-catalog.js';
import type { BusinessShop } from '../model/article.js';
import type { RecordViolation } from '../model/parse-article-record.js';
import type { IndexedArticle } from '../search/indexed-article.js';
import type { SearchBackend } from '../search/search-backend.js';
import { ImportRefusedError, rejectRefusal, type RejectLimit } from './reject-limit.js';

export type { CatalogFormat } from '../import/catalog-parser.js';

/** A record that was not imported: the 1-based line it starts on and why. */
export interface ImportFailure {
  readonly line: number;
  readonly violations: readonly RecordViolation[];
}

/** What every import reports: the records refused, by line (the first `maxFailuresListed`). */
interface ImportReport {
  readonly failed: readonly ImportFailure[];
  /** Failures beyond those listed (the list is capped). */
  readonly failedNotListed: number;
}

/**
 * Outcome of an import. Committed: the shop's catalog was replaced by `imported` articles (the
 * `failed` records skipped) and `hash` is the shop's new content version. Not committed: the
 * import was refused whole (`refusal` says why, `failed` lists the refused records) and nothing
 * changed.
 */
export type ImportResult = ImportReport &
  (
    | { readonly committed: true; readonly imported: number; readonly hash: string }
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
  /** Called once when another import holds the store and this one waits for it. */
  readonly onWait?: () => void;
  /** Longest wait for another import, ms (default 10 min); then StoreBusyError, nothing changed. */
  readonly maxWaitMs?: number;
  /** Refused records tolerated; default policy in `rejectRefusal` (empty shop, or more than 5 %). */
  readonly maxRejects?: RejectLimit;
}

/**
 * Imports a catalog file as the shop's new catalog, streaming: records are read, checked
 * (`parseArticleRecord`: required fields, decimals, unit codes) and indexed on a parse thread
 * while the store writes the ones before, never held together. A bad record (not JSON, a
 * violation, a repeated supplier article id) is reported with its line number and skipped; the
 * rest is imported, unless more records are refused than `maxRejects` allows: then the import
 * is refused whole and nothing is committed (`committed: false`). The replacement is one
 * transaction, so readers see the old catalog or the new one.
 *
 * @throws XmlSyntaxError for malformed BMEcat (nothing is changed); StoreBusyError when another
 *   import held the store longer than `maxWaitMs`; errors of the stream.
 */
export async function importCatalog(
  backend: SearchBackend,
  input: Readable,
  options: ImportCatalogOptions,
): Promise<ImportResult> {
  const failed: ImportFailure[] = [];
  let failedNotListed = 0;
  const cap = options.maxFailuresListed ?? 1000;
  const fail = (line: number, violations: readonly RecordViolation[]) => {
    if (failed.length < cap) failed.push({ line, violations });
    else failedNotListed += 1;
  };
  const every = options.progressEvery ?? 10_000;
  // Lines of the articles handed to the store, until it has taken them (for repeats it reports).
  const lines = new WeakMap<IndexedArticle, number>();
  const source = parseCatalog(input, {
    format: options.format,
    shopId: options.shop.id,
    ...(options.parseThread ? { thread: options.parseThread } : {}),
  });
  let records = 0;
  let yielded = 0;
  let duplicates = 0;
  async function* articles(): AsyncGenerator<IndexedArticle> {
    for await (const item of source) {
      records += 1;
      if (options.onProgress && records % every === 0) options.onProgress(records);
      if ('violations' in item) {
        fail(item.line, item.violations);
        continue;
      }
      lines.set(item.article, item.line);
      yielded += 1;
      yield item.article;
    }
    // The store has taken every article: decide before it commits.
    const refused = failed.length + failedNotListed;
    const refusal = rejectRefusal({ records, refused, shopArticlesAfter: yielded - duplicates }, options.maxRejects);
    if (refusal !== undefined) throw new ImportRefusedError(refusal);
  }
  const hash = randomBytes(8).toString('hex');
  let imported: number;
  try {
    imported = await backend.replaceShopCatalog({
      shop: options.shop,
      articles: articles(),
      hash,
      ...(options.onWait ? { onWait: options.onWait } : {}),
      ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
      onDuplicate: (article) => {
        duplicates += 1;
        fail(lines.get(article) ?? 0, [
          { path: '/supplierArticleId', message: `repeats ${article.supplierArticleId}` },
        ]);
      },
    });
  } catch (error) {
    if (!(error instanceof ImportRefusedError)) throw error;
    failed.sort((a, b) => a.line - b.line);
    return { committed: false, refusal: error.message, imported: 0, failed, failedNotListed };
  }
  failed.sort((a, b) => a.line - b.line);
  return { committed: true, imported, failed, failedNotListed, hash };
}
