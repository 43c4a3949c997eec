import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { readBmecat } from '../import/bmecat-reader.js';
import { readJsonLines } from '../import/json-lines-reader.js';
import type { Article, BusinessShop } from '../model/article.js';
import { parseArticleRecord, type RecordViolation } from '../model/parse-article-record.js';
import type { SearchBackend } from '../search/search-backend.js';

/** Formats `importCatalog` reads: BMEcat 1.2 or 2005 XML, or JSON Lines of our article shape. */
export type CatalogFormat = 'bmecat' | 'jsonl';

/** A record that was not imported: the 1-based line it starts on and why. */
export interface ImportFailure {
  readonly line: number;
  readonly violations: readonly RecordViolation[];
}

/** Outcome of an import: the shop's catalog was replaced by `imported` articles; `failed` were skipped. */
export interface ImportResult {
  readonly imported: number;
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
}

/**
 * Imports a catalog file as the shop's new catalog, streaming: records are read, checked
 * (`parseArticleRecord`: required fields, decimals, unit codes) and written as they come, never
 * held together. A bad record (not JSON, a violation, a repeated supplier article id) is reported
 * with its line number and skipped; the rest is imported. The replacement is one transaction, so
 * readers see the old catalog or the new one.
 *
 * @throws XmlSyntaxError for malformed BMEcat (nothing is changed); errors of the stream.
 */
export async function importCatalog(backend: SearchBackend, input: Readable, options: ImportCatalogOptions): Promise<ImportResult> {
  const failed: ImportFailure[] = [];
  let failedNotListed = 0;
  const cap = options.maxFailuresListed ?? 1000;
  const fail = (line: number, violations: readonly RecordViolation[]) => {
    if (failed.length < cap) failed.push({ line, violations });
    else failedNotListed += 1;
  };
  const every = options.progressEvery ?? 10_000;
  const source = options.format === 'bmecat' ? readBmecat(input) : readJsonLines(input);
  async function* articles(): AsyncGenerator<Article> {
    const seen = new Set<string>();
    let records = 0;
    for await (const item of source) {
      records += 1;
      if (options.onProgress && records % every === 0) options.onProgress(records);
      if ('error' in item) {
        fail(item.line, [{ path: '', message: item.error }]);
        continue;
      }
      const parsed = parseArticleRecord(item.record, options.shop.id);
      if (!parsed.ok) {
        fail(item.line, parsed.violations);
        continue;
      }
      if (seen.has(parsed.article.id)) {
        fail(item.line, [{ path: '/supplierArticleId', message: `repeats ${parsed.article.supplierArticleId}` }]);
        continue;
      }
      seen.add(parsed.article.id);
      yield parsed.article;
    }
  }
  const hash = randomBytes(8).toString('hex');
  const imported = await backend.replaceShopCatalog({ shop: options.shop, articles: articles(), hash });
  return { imported, failed, failedNotListed, hash };
}
