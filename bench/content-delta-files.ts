/**
 * The BMEcat update files of the content API benchmark (`content-api-bench.ts`), written from the
 * generated catalog in one pass: `T_UPDATE_PRICES` files (one per shop, the first shops' first
 * articles until `priceUpdates` are named; every block price 5 % dearer) and one
 * `T_UPDATE_PRODUCTS` file of `productUpdates` items for the last shop, a third each `update` (a
 * new description), `delete` and `new` (copies under new supplier ids); and `FIRST_ROUNDS` small
 * `T_UPDATE_PRICES` files of the first shop (its first `FIRST_ITEMS` articles, each file another
 * price), after each of which the benchmark times the first search.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bmecatCatalog, type Article, type BusinessShop, type GeneratedCatalog } from '@triad/content-api-service';

/** A written update file: the shop it is for and how many items of each kind it holds. */
export interface DeltaFile {
  readonly shop: BusinessShop;
  readonly file: string;
  readonly prices: number;
  readonly added: number;
  readonly updated: number;
  readonly deleted: number;
}

/** Small price files of the first shop: one delta before each "first search after a delta". */
export const FIRST_ROUNDS = 5;
const FIRST_ITEMS = 1000;

export interface DeltaFiles {
  /** `T_UPDATE_PRICES`, one per shop, in shop order. */
  readonly prices: readonly DeltaFile[];
  /** `FIRST_ROUNDS` `T_UPDATE_PRICES` of the first shop, each changing the same articles' prices again. */
  readonly firsts: readonly DeltaFile[];
  /** `T_UPDATE_PRODUCTS` of the last shop. */
  readonly products: DeltaFile;
}

/** Writes the update files into `dir`. */
export function writeDeltaFiles(
  catalog: GeneratedCatalog,
  dir: string,
  counts: { readonly articles: number; readonly priceUpdates: number; readonly productUpdates: number },
): DeltaFiles {
  const { shops } = catalog;
  const perShop = new Map(shops.map((s) => [s.id, [] as string[]]));
  // Articles go round-robin over the shops: the first shops are filled, each with as many as it has.
  const quota = new Map<string, number>();
  let rest = counts.priceUpdates;
  for (const shop of shops) {
    const take = Math.min(rest, Math.floor(counts.articles / shops.length));
    quota.set(shop.id, take);
    rest -= take;
  }
  let pricesLeft = counts.priceUpdates - rest;
  const productShop = shops[shops.length - 1]!;
  const third = Math.floor(counts.productUpdates / 3);
  const products: string[] = [];
  const kinds = { added: 0, updated: 0, deleted: 0 };
  const firstShop = shops[0]!;
  const firstArticles: Article[] = [];
  for (const article of catalog.articles()) {
    if (article.shopId === firstShop.id && firstArticles.length < FIRST_ITEMS) firstArticles.push(article);
    const items = perShop.get(article.shopId)!;
    if (items.length < quota.get(article.shopId)!) {
      items.push(priceItem(article));
      pricesLeft -= 1;
    }
    if (article.shopId === productShop.id && products.length < counts.productUpdates) {
      const n = products.length;
      if (n < third) {
        products.push(productItem({ ...article, description: `${article.description} v2` }, 'update', 'v2'));
        kinds.updated += 1;
      } else if (n < 2 * third) {
        products.push(`<PRODUCT mode="delete"><SUPPLIER_PID>${article.supplierArticleId}</SUPPLIER_PID></PRODUCT>\n`);
        kinds.deleted += 1;
      } else {
        const supplierArticleId = `${article.supplierArticleId}-N`;
        products.push(
          productItem({ ...article, supplierArticleId, id: `${article.shopId}:${supplierArticleId}` }, 'new'),
        );
        kinds.added += 1;
      }
    }
    if (pricesLeft === 0 && products.length === counts.productUpdates && firstArticles.length === FIRST_ITEMS) break;
  }
  const prices: DeltaFile[] = [];
  for (const shop of shops) {
    const items = perShop.get(shop.id)!;
    if (items.length === 0) continue;
    const file = path.join(dir, `${shop.id}.prices.xml`);
    writeDocument(file, shop, 'T_UPDATE_PRICES', items);
    prices.push({ shop, file, prices: items.length, added: 0, updated: 0, deleted: 0 });
  }
  const file = path.join(dir, `${productShop.id}.products.xml`);
  writeDocument(file, productShop, 'T_UPDATE_PRODUCTS', products);
  const firsts = Array.from({ length: FIRST_ROUNDS }, (_, round) => {
    const first = path.join(dir, `${firstShop.id}.prices-${round}.xml`);
    // 6 %, 7 %, ... dearer: every round changes the prices the one before it set.
    writeDocument(
      first,
      firstShop,
      'T_UPDATE_PRICES',
      firstArticles.map((a) => priceItem(a, 1.06 + round / 100)),
    );
    return { shop: firstShop, file: first, prices: firstArticles.length, added: 0, updated: 0, deleted: 0 };
  });
  return { prices, firsts, products: { shop: productShop, file, prices: 0, ...kinds } };
}

function writeDocument(file: string, shop: BusinessShop, transaction: string, items: readonly string[]): void {
  const chunks = [...bmecatCatalog([], { catalogId: `bench-${shop.id}-${transaction}`, currency: shop.currency })];
  const header = chunks[0]!.replace('<T_NEW_CATALOG>', `<${transaction}>`);
  const footer = chunks[chunks.length - 1]!.replace('</T_NEW_CATALOG>', `</${transaction}>`);
  writeFileSync(file, header + items.join('') + footer);
}

/** The article as the demo writer writes it, with a `mode`; `descriptionSuffix` appended to every description. */
function productItem(article: Article, mode: string, descriptionSuffix?: string): string {
  const changed = descriptionSuffix
    ? {
        ...article,
        descriptions: article.descriptions.map((d) => ({ ...d, value: `${d.value} ${descriptionSuffix}` })),
      }
    : article;
  const chunk = [...bmecatCatalog([changed], { catalogId: '', currency: article.currency })][1]!;
  return chunk.replace('<PRODUCT>', `<PRODUCT mode="${mode}">`);
}

/** A price-only item: the article's block prices times `factor` (5 % dearer). */
function priceItem(article: Article, factor = 1.05): string {
  const prices = article.blockPrices
    .map((b) => {
      const digits = b.amount.decimalDigits ?? 0;
      const amount = (Math.round(b.amount.value * factor) / 10 ** digits).toFixed(digits);
      return (
        `<PRODUCT_PRICE price_type="net_customer"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT>` +
        `<PRICE_CURRENCY>${article.currency}</PRICE_CURRENCY><LOWER_BOUND>${b.lowerBound}</LOWER_BOUND></PRODUCT_PRICE>`
      );
    })
    .join('');
  const id = `<SUPPLIER_PID>${article.supplierArticleId}</SUPPLIER_PID>`;
  return `<PRODUCT>${id}<PRODUCT_PRICE_DETAILS>${prices}</PRODUCT_PRICE_DETAILS></PRODUCT>\n`;
}
