/**
 * What the content benchmarks share: writing generated articles to each shop's JSON Lines and
 * BMEcat 2005 file, and sampling the process's peak RSS in each half of an import.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import {
  bmecatCatalog,
  toJsonLinesRecord,
  type Article,
  type BusinessShop,
  type CatalogFormat,
} from '@triad/content-api-service';

interface ShopFiles {
  readonly jsonl: WriteStream;
  readonly bmecat: WriteStream;
  lines: string[];
  products: string[];
}

/**
 * Writes each article to its shop's JSON Lines and BMEcat file (`fileOf`), in one pass over
 * `articles`; articles of a shop not in `shops` are left out.
 */
export async function writeCatalogFiles(
  shops: readonly BusinessShop[],
  articles: Iterable<Article>,
  fileOf: (shop: BusinessShop, format: CatalogFormat) => string,
): Promise<void> {
  const outs = new Map<string, ShopFiles>();
  const bmecatOptions = (shop: BusinessShop) => ({ catalogId: `bench-${shop.id}`, currency: shop.currency });
  for (const shop of shops) {
    const files: ShopFiles = {
      jsonl: createWriteStream(fileOf(shop, 'jsonl')),
      bmecat: createWriteStream(fileOf(shop, 'bmecat')),
      lines: [],
      products: [],
    };
    files.bmecat.write([...bmecatCatalog([], bmecatOptions(shop))][0]!);
    outs.set(shop.id, files);
  }
  const flush = async (w: ShopFiles) => {
    const a = w.jsonl.write(w.lines.join(''));
    const b = w.bmecat.write(w.products.join(''));
    w.lines = [];
    w.products = [];
    // Both waits are set up before either is awaited: a drain while awaiting the other is not lost.
    await Promise.all([a ? undefined : once(w.jsonl, 'drain'), b ? undefined : once(w.bmecat, 'drain')]);
  };
  for (const article of articles) {
    const w = outs.get(article.shopId);
    if (!w) continue;
    w.lines.push(`${toJsonLinesRecord(article)}\n`);
    // The writer yields header, one chunk per article, footer: the middle chunk is the PRODUCT.
    w.products.push([...bmecatCatalog([article], { catalogId: '', currency: article.currency })][1]!);
    if (w.lines.length === 500) await flush(w);
  }
  for (const shop of shops) {
    const w = outs.get(shop.id)!;
    await flush(w);
    const chunks = [...bmecatCatalog([], bmecatOptions(shop))];
    w.bmecat.end(chunks[chunks.length - 1]);
    w.jsonl.end();
    await Promise.all([once(w.jsonl, 'finish'), once(w.bmecat, 'finish')]);
  }
}

/**
 * Peak RSS in each half of an import of `articles` records (flat memory: the second half is no
 * higher than the first), sampled every 20 ms and at each `progress`.
 */
export class RssByHalf {
  /** RSS when the sampling started. */
  readonly before: number;
  readonly peaks: [number, number];
  readonly #articles: number;
  readonly #timer: NodeJS.Timeout;
  #done = 0;

  constructor(articles: number) {
    (globalThis as { gc?: () => void }).gc?.();
    this.before = process.memoryUsage.rss();
    this.peaks = [this.before, this.before];
    this.#articles = articles;
    this.#timer = setInterval(() => this.sample(), 20);
  }

  /** Records read so far; samples. */
  progress(done: number): void {
    this.#done = done;
    this.sample();
  }

  sample(): void {
    const half = this.#done < this.#articles / 2 ? 0 : 1;
    this.peaks[half] = Math.max(this.peaks[half], process.memoryUsage.rss());
  }

  /** Stops sampling, after a last sample. */
  stop(): void {
    clearInterval(this.#timer);
    this.sample();
  }
}
