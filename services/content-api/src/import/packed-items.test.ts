import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../demo/generate-catalog.js';
import { toJsonLinesRecord } from '../demo/catalog-writers.js';
import { CatalogParser, finishCatalogItems, type ParsedCatalogItem } from './catalog-parser.js';
import { packItems, unpackItems } from './packed-items.js';
import { ShopWordCounter, ShopWordCounts } from '../search/segments/shop-word-counts.js';

/** The records of `lines` as a worker finishes them for shop `office-direct`. */
function finished(lines: readonly string[]): ParsedCatalogItem[] {
  const parser = new CatalogParser('jsonl');
  return finishCatalogItems([...parser.feed(lines.join('\n') + '\n'), ...parser.end()], 'office-direct');
}

describe('packItems / unpackItems', () => {
  const records = [...generateCatalog({ articles: 400, seed: 7 }).articles()]
    .filter((a) => a.shopId === 'office-direct')
    .map((a) => JSON.parse(toJsonLinesRecord(a)) as Record<string, unknown>);

  it('gives back every record as finishCatalogItem made it, members and their order too', () => {
    const lines = records.map((r, i) => {
      if (i === 1) return '{ not json';
      if (i === 2) return JSON.stringify({ ...r, manufacturerName: undefined, classifications: [] });
      if (i === 3) return JSON.stringify({ ...r, supplierArticleId: '' });
      return JSON.stringify(r);
    });
    const items = finished(lines);
    expect(items.some((i) => 'violations' in i)).toBe(true);
    expect(items.some((i) => 'article' in i && i.article.manufacturerName === undefined)).toBe(true);
    expect(items.some((i) => 'article' in i && Object.keys(i.article.fields.groupNames).length > 0)).toBe(true);
    const packed = packItems(items, 'office-direct');
    expect(packed.others.length).toBeLessThan(items.length / 2);
    const back = unpackItems(structuredClone(packed), 'office-direct');
    expect(back).toStrictEqual(items);
    // Member order matters where a record is written as JSON (group names, documents).
    expect(JSON.stringify(back)).toBe(JSON.stringify(items));
    expect(back.map((i) => Object.keys(i).join())).toEqual(items.map((i) => Object.keys(i).join()));
  });

  it('packs the price type and the shop tax taken, and leaves warned and scheduled records whole', () => {
    const items = finished(records.slice(0, 3).map((r) => JSON.stringify(r)));
    const [a, b, c] = items as (ParsedCatalogItem & { article: NonNullable<unknown> })[];
    const typed = { ...a!, priceType: 'net_customer', taxFromShop: true as const };
    const warned = { ...b!, warnings: [{ kind: 'repeated-element', path: 'X', linesBelow: 0, message: 'm' }] };
    const scheduled = {
      ...c!,
      article: { ...c!.article, priceSchedule: { document: '{}', dueAt: '2027-01-01T00:00:00.000Z' } },
    } as ParsedCatalogItem;
    const all = [typed, warned, scheduled, { ...a!, priceType: 'net_list' }];
    const packed = packItems(all, 'office-direct');
    expect(packed.others.map(([i]) => i)).toEqual([1, 2]);
    expect(unpackItems(structuredClone(packed), 'office-direct')).toStrictEqual(all);
    expect(packItems(all, 'another-shop').others).toHaveLength(4);
  });

  it('brings the words of the articles counted, as counting each article gives them', () => {
    const lines = records.map((r, i) => (i === 5 ? '{ not json' : JSON.stringify(r)));
    const items = finished(lines);
    const articles = items.flatMap((i) => ('article' in i ? [i.article] : []));
    expect(packItems(items, 'office-direct').words).toBeUndefined();
    const back = unpackItems(structuredClone(packItems(items, 'office-direct', true)), 'office-direct');
    const counter = new ShopWordCounter();
    for (const item of back) if ('article' in item) counter.note(item.article, item.article.fields.searchText, true);
    const each = new ShopWordCounts();
    for (const article of articles) each.add(article.fields.searchText);
    expect(counter.finish().encode().toString()).toBe(each.encode().toString());
    expect(counter.runsMerged).toBe(1);
    expect(packItems([], 'office-direct', true).words).toBeUndefined();
  });
});
