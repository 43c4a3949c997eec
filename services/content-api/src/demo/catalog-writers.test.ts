import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBmecat } from '../import/bmecat-reader.js';
import { readJsonLines } from '../import/json-lines-reader.js';
import type { Article } from '../model/article.js';
import { parseArticleRecord } from '../model/parse-article-record.js';
import { bmecatCatalog, jsonLinesCatalog } from './catalog-writers.js';
import { generateCatalog } from './generate-catalog.js';

async function reread(
  source: AsyncGenerator<{ line: number; record?: unknown; error?: string }>,
  shopId: string,
): Promise<Article[]> {
  const out: Article[] = [];
  for await (const item of source) {
    const parsed = parseArticleRecord(item.record, shopId);
    if (!parsed.ok) throw new Error(`line ${item.line}: ${JSON.stringify(parsed.violations)}`);
    out.push(parsed.article);
  }
  return out;
}

describe('catalog writers', () => {
  const shopArticles = [...generateCatalog({ articles: 40, seed: 5 }).articles()].filter(
    (a) => a.shopId === 'office-direct',
  );
  const stripReferences = (a: Article) => ({ ...a, references: [] as Article['references'] });

  it('writes JSON Lines that read back into the same articles', async () => {
    const back = await reread(readJsonLines(Readable.from(jsonLinesCatalog(shopArticles))), 'office-direct');
    expect(back).toEqual(shopArticles);
  });

  it('writes BMEcat 2005 that reads back into the same articles but special taxes, with the price type', async () => {
    const back = await reread(
      readBmecat(Readable.from(bmecatCatalog(shopArticles, { catalogId: 'od', currency: 'EUR' }))),
      'office-direct',
    );
    // BMEcat prices come with the price type they were read from (the writer's net_customer); a
    // group's name is not written (BMEcat gives a group's id or its name in PRODUCT_FEATURES, not both).
    expect(back.map(stripReferences)).toEqual(
      shopArticles.map((a) =>
        stripReferences({
          ...a,
          specialTaxes: [],
          priceConditions: { territories: [], priceType: 'net_customer' },
          classifications: a.classifications.map(({ groupName: _, ...c }) => c),
        }),
      ),
    );
    expect(back.map((a) => a.references)).toEqual(shopArticles.map((a) => a.references));
  });
});
