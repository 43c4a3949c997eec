import type { GroupNames } from '../search/article-index-fields.js';
import type { IndexedArticle } from '../search/indexed-article.js';
import type { ParsedCatalogItem } from './catalog-parser.js';
import { countRunWords, markRunWords, type ArticleRunWords } from '../search/segments/shop-word-counts.js';

/**
 * A parse worker's records as they cross to the importing thread: each plain article (no price
 * schedule, no reader warnings: nearly all) as a run of strings and of numbers, the rest as they
 * are. A structured clone of objects writes every member's name with its value and builds the
 * objects member by member on the other side; runs of values do neither (decision 0053).
 */
export interface PackedItems {
  /** `ARTICLE_STRINGS` strings (or undefined) per packed article. */
  readonly strings: (string | undefined)[];
  /** `ARTICLE_NUMBERS` numbers per packed article. */
  readonly numbers: Float64Array;
  /** The records not packed, each with its place among all. */
  readonly others: [number, ParsedCatalogItem][];
  /** Records in all. */
  readonly count: number;
  /** The words of the articles among the records, counted (`ArticleRunWords`); none without articles. */
  readonly words?: ArticleRunWords;
}

const ARTICLE_STRINGS = 17;
const ARTICLE_NUMBERS = 5;

/** Whether the record is an article `packItems` packs: every member it has is one it writes. */
function packable(item: ParsedCatalogItem, shopId: string): item is Extract<ParsedCatalogItem, { article: unknown }> {
  return (
    'article' in item &&
    item.warnings === undefined &&
    item.article.priceSchedule === undefined &&
    item.article.shopId === shopId &&
    !('priceSchedule' in item.article)
  );
}

/**
 * Packs a worker's records for one shop (`unpackItems` gives them back as they were); with
 * `countWords`, with the words of its articles counted.
 */
export function packItems(items: readonly ParsedCatalogItem[], shopId: string, countWords = false): PackedItems {
  let packed = 0;
  for (const item of items) if (packable(item, shopId)) packed += 1;
  // Pushed, not preallocated: a clone writes an array with holes member by member.
  const strings: (string | undefined)[] = [];
  const numbers = new Float64Array(packed * ARTICLE_NUMBERS);
  const others: [number, ParsedCatalogItem][] = [];
  let n = 0;
  const searchTexts: string[] = [];
  let lastId = '';
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i]!;
    if (countWords && 'article' in item) {
      searchTexts.push(item.article.fields.searchText);
      lastId = item.article.id;
    }
    if (!packable(item, shopId)) {
      others.push([i, item]);
      continue;
    }
    const a = item.article;
    const f = a.fields;
    const g = f.groupNames;
    strings.push(
      a.id,
      a.supplierArticleId,
      a.description,
      a.manufacturerName,
      a.document,
      f.searchText,
      f.unspsc7,
      f.unspsc9,
      f.unspsc,
      f.eclass,
      f.etim,
      g['UNSPSC-7'],
      g['UNSPSC-9'],
      g.UNSPSC,
      g.ECLASS,
      g.ETIM,
      item.priceType,
    );
    numbers[n++] = item.line;
    numbers[n++] = f.wordCount;
    numbers[n++] = f.priceScaled;
    numbers[n++] = f.priceInclScaled;
    numbers[n++] = item.taxFromShop === true ? 1 : 0;
  }
  if (searchTexts.length === 0) return { strings, numbers, others, count: items.length };
  const words = { articles: searchTexts.length, lastId, ...countRunWords(searchTexts) };
  return { strings, numbers, others, count: items.length, words };
}

/**
 * The records `packItems` packed, in their order, as `finishCatalogItem` made them; the first
 * article is marked with the words of the articles (`markRunWords`).
 */
export function unpackItems(packed: PackedItems, shopId: string): ParsedCatalogItem[] {
  const { strings, numbers, others } = packed;
  const items: ParsedCatalogItem[] = [];
  let s = 0;
  let n = 0;
  let next = 0;
  for (let i = 0; i < packed.count; i += 1) {
    const other = others[next];
    if (other !== undefined && other[0] === i) {
      items.push(other[1]);
      next += 1;
      continue;
    }
    const article: IndexedArticle = {
      id: strings[s]!,
      shopId,
      supplierArticleId: strings[s + 1]!,
      description: strings[s + 2]!,
      manufacturerName: strings[s + 3],
      document: strings[s + 4]!,
      fields: {
        searchText: strings[s + 5]!,
        wordCount: numbers[n + 1]!,
        priceScaled: numbers[n + 2]!,
        priceInclScaled: numbers[n + 3]!,
        unspsc7: strings[s + 6],
        unspsc9: strings[s + 7],
        unspsc: strings[s + 8],
        eclass: strings[s + 9],
        etim: strings[s + 10],
        groupNames: groupNames(strings, s + 11),
      },
    };
    const line = numbers[n]!;
    const priceType = strings[s + 16];
    const taxFromShop = numbers[n + 4] === 1;
    // The members `finishCatalogItem` gives, in its order.
    items.push(
      priceType === undefined && !taxFromShop
        ? { line, article }
        : {
            line,
            article,
            ...(priceType !== undefined ? { priceType } : {}),
            ...(taxFromShop ? { taxFromShop: true } : {}),
          },
    );
    s += ARTICLE_STRINGS;
    n += ARTICLE_NUMBERS;
  }
  const words = packed.words;
  if (words !== undefined) {
    const first = items.find((item) => 'article' in item);
    if (first !== undefined && 'article' in first) markRunWords(first.article, words);
  }
  return items;
}

/** The group names from `at` on (`classificationFields` order), only those given. */
function groupNames(strings: readonly (string | undefined)[], at: number): GroupNames {
  const names: { -readonly [F in keyof GroupNames]: string } = {};
  const unspsc7 = strings[at];
  const unspsc9 = strings[at + 1];
  const unspsc = strings[at + 2];
  const eclass = strings[at + 3];
  const etim = strings[at + 4];
  if (unspsc7 !== undefined) names['UNSPSC-7'] = unspsc7;
  if (unspsc9 !== undefined) names['UNSPSC-9'] = unspsc9;
  if (unspsc !== undefined) names.UNSPSC = unspsc;
  if (eclass !== undefined) names.ECLASS = eclass;
  if (etim !== undefined) names.ETIM = etim;
  return names;
}
