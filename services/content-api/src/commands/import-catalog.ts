import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CatalogFormat } from '../import/catalog-parser.js';
import { parseCatalog } from '../import/parse-catalog.js';
import type { BusinessShop } from '../model/article.js';
import type { RecordViolation } from '../model/parse-article-record.js';
import type { IndexedArticle } from '../search/indexed-article.js';
import type { SearchBackend } from '../search/search-backend.js';

export type { CatalogFormat } from '../import/catalog-parser.js';

/** A record that was not imported: the 1-based line it starts on and why. */
export interface ImportFailure {
  readonly line: number;
  readonly violations: readonly RecordViolation[];
}

/** Outcome of an import: the shop's catalog was replaced by `imported` articles; `failed` were skipped. */
export interface ImportResult {
  readonly imported: number;
  /** By line; the first `maxFailuresListed` reported. */
  readonly failed: readonly ImportFailure[];
  /** Failures beyond those listed (the list is capped). */
  readonly failedNotListed: number;
  /** The new content version. */
  readonly hash: string;
}

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
}

/**
 * Imports a catalog file as the shop's new catalog, streaming: records are read, checked
 * (`parseArticleRecord`: required fields, decimals, unit codes) and indexed on a parse thread
 * while the store writes the ones before, never held together. A bad record (not JSON, a
 * violation, a repeated supplier article id) is reported with its line number and skipped; the
 * rest is imported. The replacement is one transaction, so readers see the old catalog or the
 * new one.
 *
 * @throws XmlSyntaxError for malformed BMEcat (nothing is changed); errors of the stream.
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
  async function* articles(): AsyncGenerator<IndexedArticle> {
    let records = 0;
    for await (const item of source) {
      records += 1;
      if (options.onProgress && records % every === 0) options.onProgress(records);
      if ('violations' in item) {
        fail(item.line, item.violations);
        continue;
      }
      lines.set(item.article, item.line);
      yield item.article;
    }
  }
  const hash = randomBytes(8).toString('hex');
  const imported = await backend.replaceShopCatalog({
    shop: options.shop,
    articles: articles(),
    hash,
    onDuplicate: (article) =>
      fail(lines.get(article) ?? 0, [{ path: '/supplierArticleId', message: `repeats ${article.supplierArticleId}` }]),
  });
  failed.sort((a, b) => a.line - b.line);
  return { imported, failed, failedNotListed, hash };
}
