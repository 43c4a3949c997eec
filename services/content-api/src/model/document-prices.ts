import type { Article } from './article.js';
import { ARTICLE_DOCUMENT_FORMAT, blockPricesOf, dec, priceConditionsOf, specialTaxesOf } from './article-document.js';

/** New prices of a stored article: members left out keep theirs; `priceConditions` given as undefined is removed. */
export type DocumentPrices = Pick<Article, 'blockPrices'> &
  Partial<Pick<Article, 'currency' | 'tax' | 'specialTaxes' | 'priceConditions'>>;

/** What an article's indexed prices are computed from (`articlePriceFields`). */
export type PricedArticle = Pick<Article, 'blockPrices' | 'specialTaxes'> & {
  readonly orderDetails: Pick<Article['orderDetails'], 'minimumOrderQuantity' | 'priceQuantity'>;
};

/** Positions in the layout: the members after `references` are optional (trailing nulls left out). */
const CURRENCY = 9;
const TAX = 10;
const BLOCK_PRICES = 11;
const SPECIAL_TAXES = 12;
const ORDER_DETAILS = 13;
const FIRST_OPTIONAL = 17;
const PRICE_CONDITIONS = 20;

/**
 * A document of `encodeArticleDocument` with `prices` put in, the rest copied as it is (a price
 * update need not decode and encode the whole article: cutting the text at its top-level commas
 * takes a tenth of the time), and what its indexed prices come from. Undefined for a document of
 * another layout: decode and encode that one.
 */
export function withDocumentPrices(
  text: string,
  prices: DocumentPrices,
): { readonly document: string; readonly priced: PricedArticle } | undefined {
  const change = pricesChange(text, prices);
  if (change === undefined) return undefined;
  if (change === PARSE) return withDocumentPricesParsed(text, prices);
  const { at, members, conditions } = change;
  const head = text.slice(0, at[CURRENCY - 1]! + 1);
  const document =
    conditions === undefined
      ? head + members + text.slice(at[SPECIAL_TAXES])
      : head +
        members +
        text.slice(at[SPECIAL_TAXES], at[PRICE_CONDITIONS - 1]! + 1) +
        conditions +
        text.slice(at[PRICE_CONDITIONS]);
  return { document, priced: change.priced };
}

/**
 * `withDocumentPrices` as the new price members alone (`documentPricesText` of the new
 * document), when nothing else of the document changes: `withPricesText(text, prices)` is then
 * the new document. Undefined when something else changes (price conditions set or removed) or
 * for a document of another layout: use `withDocumentPrices`.
 */
export function withDocumentPricesText(
  text: string,
  prices: DocumentPrices,
): { readonly prices: string; readonly priced: PricedArticle } | undefined {
  const change = pricesChange(text, prices);
  if (change === undefined || change === PARSE) return undefined;
  const { at, members, conditions } = change;
  if (conditions !== undefined && conditions !== element(text, at, PRICE_CONDITIONS)) return undefined;
  return { prices: members, priced: change.priced };
}

const PARSE = Symbol('parse');

/**
 * What `prices` change in the document `text`: its price members as text, and the price
 * conditions as text where they replace the document's element; `PARSE` where the document has
 * to be decoded (conditions to set where it has no place for them, or a tail of nulls to trim);
 * undefined for a document of another layout.
 */
function pricesChange(
  text: string,
  prices: DocumentPrices,
): { at: number[]; members: string; conditions: string | undefined; priced: PricedArticle } | typeof PARSE | undefined {
  if (!text.startsWith(`[${ARTICLE_DOCUMENT_FORMAT},`)) return undefined;
  // Without price conditions nothing after the order details is read, with them nothing after the
  // element beyond them (whether there is one is all that counts): the rest is copied unscanned.
  const at = topLevelCommas(text, 'priceConditions' in prices ? PRICE_CONDITIONS + 2 : ORDER_DETAILS + 1);
  const count = at.length;
  const conditions = 'priceConditions' in prices ? priceConditionsOf(prices.priceConditions) : undefined;
  if (conditions !== undefined && (conditions !== null ? count <= PRICE_CONDITIONS : count === PRICE_CONDITIONS + 1))
    return PARSE;
  const members =
    (prices.currency !== undefined ? JSON.stringify(prices.currency) : element(text, at, CURRENCY)) +
    ',' +
    (prices.tax !== undefined ? JSON.stringify(dec(prices.tax)) : element(text, at, TAX)) +
    ',' +
    JSON.stringify(blockPricesOf(prices.blockPrices)) +
    ',' +
    (prices.specialTaxes !== undefined
      ? JSON.stringify(specialTaxesOf(prices.specialTaxes))
      : element(text, at, SPECIAL_TAXES));
  const od = JSON.parse(element(text, at, ORDER_DETAILS)) as [unknown, unknown, unknown, number, number, number];
  return {
    at,
    members,
    conditions: conditions === undefined || count <= PRICE_CONDITIONS ? undefined : JSON.stringify(conditions),
    priced: {
      blockPrices: prices.blockPrices,
      specialTaxes: prices.specialTaxes ?? specialTaxesFrom(JSON.parse(element(text, at, SPECIAL_TAXES)) as Dec3[]),
      orderDetails: { minimumOrderQuantity: od[3], priceQuantity: od[5] },
    },
  };
}

/**
 * The price members of a document of `encodeArticleDocument` (currency, tax, block prices and
 * special taxes: the text between the comma before the first and the comma after the last),
 * undefined for a document of another layout. A store may keep them beside the document
 * (`withPricesText` puts them back in).
 */
export function documentPricesText(text: string): string | undefined {
  if (!text.startsWith(`[${ARTICLE_DOCUMENT_FORMAT},`)) return undefined;
  const at = topLevelCommas(text, SPECIAL_TAXES + 1);
  if (at.length <= SPECIAL_TAXES) return undefined;
  return text.slice(at[CURRENCY - 1]! + 1, at[SPECIAL_TAXES]);
}

/**
 * The document `text` with its price members replaced by `prices` (a `documentPricesText`); `text`
 * as it is for null.
 *
 * @throws Error for a document of another layout.
 */
export function withPricesText(text: string, prices: string | null): string {
  if (prices === null) return text;
  const at = text.startsWith(`[${ARTICLE_DOCUMENT_FORMAT},`) ? topLevelCommas(text, SPECIAL_TAXES + 1) : [];
  if (at.length <= SPECIAL_TAXES) throw new Error('stored prices for a document without their place');
  return text.slice(0, at[CURRENCY - 1]! + 1) + prices + text.slice(at[SPECIAL_TAXES]);
}

type Dec3 = [number, number, string];

function specialTaxesFrom(taxes: readonly Dec3[]): Article['specialTaxes'] {
  return taxes.map(([value, decimalDigits, taxType]) => ({ amount: { value, decimalDigits }, taxType }));
}

/** `withDocumentPrices` by parsing the whole document (to give it members it does not have yet). */
function withDocumentPricesParsed(
  text: string,
  prices: DocumentPrices,
): { readonly document: string; readonly priced: PricedArticle } {
  const d = JSON.parse(text) as unknown[];
  if (prices.currency !== undefined) d[CURRENCY] = prices.currency;
  if (prices.tax !== undefined) d[TAX] = dec(prices.tax);
  d[BLOCK_PRICES] = blockPricesOf(prices.blockPrices);
  if (prices.specialTaxes !== undefined) d[SPECIAL_TAXES] = specialTaxesOf(prices.specialTaxes);
  while (d.length <= PRICE_CONDITIONS) d.push(null);
  d[PRICE_CONDITIONS] = priceConditionsOf(prices.priceConditions);
  while (d.length > FIRST_OPTIONAL && d[d.length - 1] === null) d.pop();
  const od = d[ORDER_DETAILS] as [unknown, unknown, unknown, number, number, number];
  return {
    document: JSON.stringify(d),
    priced: {
      blockPrices: prices.blockPrices,
      specialTaxes: prices.specialTaxes ?? specialTaxesFrom(d[SPECIAL_TAXES] as Dec3[]),
      orderDetails: { minimumOrderQuantity: od[3], priceQuantity: od[5] },
    },
  };
}

/**
 * Element `i` of the array `text` whose top-level commas are at `at` (`topLevelCommas`): between
 * `at[i - 1]` (or the `[` for the first) and `at[i]`. A function of its own, not a closure per call.
 */
function element(text: string, at: readonly number[], i: number): string {
  return text.slice(i === 0 ? 1 : at[i - 1]! + 1, at[i]);
}

/**
 * Offsets of the commas between the elements of the JSON array `text` (as `JSON.stringify`
 * writes it: no spaces), then of its closing `]`; only the first `limit` when fewer are needed.
 */
function topLevelCommas(text: string, limit: number): number[] {
  const at: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i += 1; text.charCodeAt(i) !== 34; i += 1) if (text.charCodeAt(i) === 92 /* \ */) i += 1;
    } else if (c === 91 /* [ */ || c === 123 /* { */) depth += 1;
    else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth -= 1;
      if (depth === 0) at.push(i);
    } else if (c === 44 /* , */ && depth === 1 && at.push(i) === limit) break;
  }
  return at;
}
