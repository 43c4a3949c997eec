import { parseArticleRecord, type RecordViolation } from '../model/parse-article-record.js';
import { indexArticle, type IndexedArticle } from '../search/indexed-article.js';
import { BmecatItemReader } from './bmecat-reader.js';
import { JsonLinesSplitter } from './json-lines-reader.js';

/** Formats an import reads: BMEcat 1.2 or 2005 XML, or JSON Lines of our article shape. */
export type CatalogFormat = 'bmecat' | 'jsonl';

/**
 * A record as the file gives it (our JSON Lines shape, also what BMEcat items are mapped to), or why it cannot be
 * read.
 */
export type RawCatalogItem =
  { readonly line: number; readonly record: unknown } | { readonly line: number; readonly error: string };

/** A record of the file: indexed and ready to store, or why it is refused; with its 1-based start line. */
export type ParsedCatalogItem =
  | { readonly line: number; readonly article: IndexedArticle }
  | { readonly line: number; readonly violations: readonly RecordViolation[] };

/**
 * Turns pushed text of a catalog file into records (JSON Lines or BMEcat items mapped to our
 * shape), the unfinished record only held. `finishCatalogItem` checks and indexes them.
 */
export class CatalogParser {
  readonly #source: { feed(text: string): readonly RawCatalogItem[]; end(): unknown; readonly lines?: number };

  constructor(format: CatalogFormat) {
    this.#source = format === 'bmecat' ? new BmecatItemReader() : new JsonLinesSplitter();
  }

  /** JSON Lines: lines read so far (blank ones included). */
  get lines(): number {
    return this.#source.lines ?? 0;
  }

  /** Records the text completed. @throws XmlSyntaxError for malformed BMEcat. */
  feed(text: string): readonly RawCatalogItem[] {
    return this.#source.feed(text);
  }

  /** Records left at the end of the file. @throws XmlSyntaxError when the BMEcat document is incomplete. */
  end(): readonly RawCatalogItem[] {
    const rest = this.#source.end();
    return Array.isArray(rest) ? (rest as RawCatalogItem[]) : [];
  }
}

/** Checks a record for one shop (`parseArticleRecord`) and indexes it (`indexArticle`), or gives its violations. */
export function finishCatalogItem(item: RawCatalogItem, shopId: string): ParsedCatalogItem {
  if ('error' in item) return { line: item.line, violations: [{ path: '', message: item.error }] };
  const parsed = parseArticleRecord(item.record, shopId);
  return parsed.ok
    ? { line: item.line, article: indexArticle(parsed.article) }
    : { line: item.line, violations: parsed.violations };
}

/** `finishCatalogItem` of every item. */
export function finishCatalogItems(items: readonly RawCatalogItem[], shopId: string): ParsedCatalogItem[] {
  return items.map((item) => finishCatalogItem(item, shopId));
}
