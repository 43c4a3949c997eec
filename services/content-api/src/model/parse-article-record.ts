import { isObject } from '@triad/common';
import { LANGUAGES, type Article, type PriceConditions } from './article.js';
import type { Decimal } from './decimal.js';
import { choosePriceOffer, validAt, type ChosenPrices, type WaitingPrices } from './choose-price-offer.js';
import { endMoment, type PriceSchedule } from './price-schedule.js';
import { anyShopTerms, type ShopPriceTerms } from './shop-price-terms.js';
import { normalizeUnitCode, UNIT_CODES } from './unit-codes.js';

/** One problem of an import record: where (JSON pointer) and what. */
export interface RecordViolation {
  readonly path: string;
  readonly message: string;
}

/**
 * A record kept, not searchable until it has a price valid now (decision 0033): the record as it
 * is to be stored (a BMEcat item with its ladders that have not ended) and when it becomes
 * searchable by itself.
 */
export interface WaitingRecord {
  readonly record: Readonly<Record<string, unknown>>;
  /** ISO 8601 date-time (UTC) its first usable ladder starts; absent: it waits for new prices. */
  readonly searchableFrom?: string;
}

export type ParsedRecord =
  | {
      readonly ok: true;
      readonly article: Article;
      /** Set when the prices taken may change at a date (a ladder ends, or one to come starts): check again then. */
      readonly schedule?: PriceSchedule;
    }
  | {
      readonly ok: false;
      /** Every violation; for a `waiting` record, only why it has no price usable now. */
      readonly violations: readonly RecordViolation[];
      /** Set when the record passes every other check but has no price usable now: keep it, not searchable. */
      readonly waiting?: WaitingRecord;
    };

type Json = Record<string, unknown>;

/**
 * Checks one record of our JSON Lines article shape (`Article` without `id` and `shopId`, which
 * the import sets: `id` = `<shopId>:<supplierArticleId>`) and returns the article or every
 * violation. Decimals must be `{value, decimalDigits}` integers (`decimalDigits` defaults to 0),
 * unit codes from the spec's set or mapped to it (`normalizeUnitCode`; the provider's code is
 * kept beside the mapped one), languages from the known list, block prices with ascending
 * lower bounds (the minimum order quantity is raised to the first).
 *
 * `shop` is the shop's id, or its price terms (`ShopPriceTerms`): then the currency must be the
 * shop's, and a record without `tax` takes the shop's `defaultTax`. A BMEcat record gives
 * `priceOffers` (every ladder of the item) instead of `currency`, `tax`, `blockPrices` and
 * `priceConditions`: `choosePriceOffer` takes one by the terms (by the defaults for an id alone).
 */
export function parseArticleRecord(record: unknown, shop: string | ShopPriceTerms): ParsedRecord {
  if (!isObject(record)) return { ok: false, violations: [{ path: '', message: 'must be a JSON object' }] };
  const shopId = typeof shop === 'string' ? shop : shop.shopId;
  // Plain functions and paths built only for violations: this runs once per imported article.
  const v: RecordViolation[] = [];
  str(v, record, 'supplierArticleId', '', true);
  str(v, record, 'description', '', true);
  str(v, record, 'manufacturerName', '', false);
  str(v, record, 'manufacturerArticleId', '', false);
  if (!Array.isArray(record.descriptions) || record.descriptions.length === 0)
    v.push({ path: '/descriptions', message: 'must be a non-empty array' });
  arr(v, record, 'descriptions', localized);
  arr(v, record, 'descriptionsLong', localized);
  const prices = pricesOf(v, record, typeof shop === 'string' ? anyShopTerms(shop) : shop);
  arr(v, record, 'specialTaxes', specialTax);
  const od = record.orderDetails;
  if (!isObject(od)) v.push({ path: '/orderDetails', message: 'must be an object' });
  else {
    unit(v, od, 'orderUnit', true);
    unit(v, od, 'contentUnit', false);
    if (od.numberOfContentUnitsPerOrderUnit !== undefined)
      dec(v, od.numberOfContentUnitsPerOrderUnit, '/orderDetails/numberOfContentUnitsPerOrderUnit');
    int(v, od, 'minimumOrderQuantity', '/orderDetails', 1, true);
    int(v, od, 'orderQuantityInterval', '/orderDetails', 1, true);
    int(v, od, 'priceQuantity', '/orderDetails', 1, true);
    int(v, od, 'deliveryTime', '/orderDetails', 0, false);
  }
  arr(v, record, 'classifications', classification);
  arr(v, record, 'images', image);
  arr(v, record, 'references', reference);
  str(v, record, 'supplierAlternativeArticleId', '', false);
  arr(v, record, 'buyerArticleIds', typedValue);
  arr(v, record, 'statuses', typedValue);
  arr(v, record, 'remarks', localized);
  arr(v, record, 'specialTreatmentClasses', typedValue);
  str(v, record, 'customsTariffNumber', '', false);
  str(v, record, 'countryOfOrigin', '', false);
  if (record.weight !== undefined) dec(v, record.weight, '/weight');
  if (prices && 'waiting' in prices) {
    if (v.length > 0) return { ok: false, violations: [...v, ...prices.reasons] };
    const offers = prices.waiting.offers;
    const from = prices.waiting.searchableFrom;
    return {
      ok: false,
      violations: prices.reasons,
      waiting: {
        record: record.priceOffers === undefined ? record : { ...record, priceOffers: offers },
        ...(from !== undefined ? { searchableFrom: from } : {}),
      },
    };
  }
  if (v.length > 0 || !prices) return { ok: false, violations: v };
  const r = record as unknown as Omit<Article, 'id' | 'shopId' | 'references' | 'priceConditions'> & {
    readonly references?: readonly { articleReferenceType: string; refId?: string; supplierArticleId?: string }[];
    readonly priceConditions?: Omit<PriceConditions, 'territories'> & { readonly territories?: readonly string[] };
  };
  const order = r.orderDetails;
  const perOrderUnit = order.numberOfContentUnitsPerOrderUnit;
  // Built member by member: spreading the record was a fifth of the check's time. Members
  // outside `Article` are left behind, as the stored document would drop them anyway.
  const article: Article = {
    id: `${shopId}:${r.supplierArticleId}`,
    shopId,
    supplierArticleId: r.supplierArticleId,
    description: r.description,
    descriptions: r.descriptions,
    descriptionsLong: r.descriptionsLong ?? [],
    manufacturerName: r.manufacturerName,
    manufacturerArticleId: r.manufacturerArticleId,
    internationalArticleIds: r.internationalArticleIds ?? [],
    keywords: r.keywords ?? [],
    currency: prices.currency,
    tax: withDigits(prices.tax),
    blockPrices: prices.blockPrices.every((b) => b.amount.decimalDigits !== undefined)
      ? prices.blockPrices
      : prices.blockPrices.map((b) => ({ ...b, amount: withDigits(b.amount) })),
    specialTaxes: (r.specialTaxes ?? []).map((t) =>
      t.amount.decimalDigits === undefined ? { ...t, amount: withDigits(t.amount) } : t,
    ),
    orderDetails: atLeastFirstBound(
      (perOrderUnit && perOrderUnit.decimalDigits === undefined) ||
        !UNIT_CODES.has(order.orderUnit) ||
        (order.contentUnit !== undefined && !UNIT_CODES.has(order.contentUnit))
        ? orderDetailsOf(order)
        : order,
      prices.blockPrices[0]?.lowerBound ?? 1,
    ),
    classifications: (r.classifications ?? []).map((c) => (c.features ? c : { ...c, features: [] })),
    images: (r.images ?? []).map((i) =>
      i.purpose !== undefined && i.descriptions
        ? i
        : { ...i, purpose: i.purpose ?? 'normal', descriptions: i.descriptions ?? [] },
    ),
    references: referencesOf(r.references, shopId),
  };
  // Optional members only when given: most records have none, and the stored document stays short.
  // Added to the one object in a fixed order (profiled: a spread per member gave every article
  // a hidden class of its own, and encoding and indexing them took half as long again).
  const more = article as { -readonly [K in keyof Article]: Article[K] };
  if (r.supplierAlternativeArticleId !== undefined) more.supplierAlternativeArticleId = r.supplierAlternativeArticleId;
  if (r.buyerArticleIds !== undefined) more.buyerArticleIds = r.buyerArticleIds;
  if (r.statuses !== undefined) more.statuses = r.statuses;
  if (r.remarks !== undefined) more.remarks = r.remarks;
  if (r.specialTreatmentClasses !== undefined) more.specialTreatmentClasses = r.specialTreatmentClasses;
  if (r.customsTariffNumber !== undefined) more.customsTariffNumber = r.customsTariffNumber;
  if (r.countryOfOrigin !== undefined) more.countryOfOrigin = r.countryOfOrigin;
  if (r.weight !== undefined) more.weight = withDigits(r.weight);
  if (prices.priceConditions !== undefined) more.priceConditions = prices.priceConditions;
  if (prices.changesAt === undefined) return { ok: true, article };
  return { ok: true, article, schedule: { document: JSON.stringify(record), dueAt: prices.changesAt } };
}

/**
 * The record's prices: chosen from its `priceOffers` (BMEcat), or its own `currency`, `tax`,
 * `blockPrices` and `priceConditions` checked against the shop's terms. Undefined after a violation.
 */
function pricesOf(
  v: RecordViolation[],
  record: Json,
  terms: ShopPriceTerms,
):
  | (ChosenPrices & { readonly changesAt?: string })
  | { readonly waiting: WaitingPrices; readonly reasons: readonly RecordViolation[] }
  | undefined {
  if (record.priceOffers !== undefined) {
    const chosen = choosePriceOffer(record.priceOffers, terms);
    if (chosen.ok) return chosen;
    if (chosen.waiting) return { waiting: chosen.waiting, reasons: chosen.violations };
    v.push(...chosen.violations);
    return undefined;
  }
  const before = v.length;
  str(v, record, 'currency', '', true);
  const currency = record.currency;
  if (typeof currency === 'string' && terms.currency !== undefined && currency !== terms.currency && currency !== '')
    v.push({
      path: '/currency',
      message: `${currency}: shop ${terms.shopId} accepts ${terms.currency} (give prices in ${terms.currency})`,
    });
  const taxFromShop = record.tax === undefined && terms.defaultTax !== undefined;
  const tax = taxFromShop ? terms.defaultTax : record.tax;
  if (tax === undefined)
    v.push({
      path: '/tax',
      message:
        `is missing and shop ${terms.shopId} has no default tax: give tax, or set one with: ` +
        `triad shops update ${terms.shopId} --default-tax 0.19`,
    });
  else dec(v, tax, '/tax');
  if (!Array.isArray(record.blockPrices) || record.blockPrices.length === 0)
    v.push({ path: '/blockPrices', message: 'must be a non-empty array' });
  arr(v, record, 'blockPrices', blockPrices());
  if (record.priceConditions !== undefined) priceConditions(v, record.priceConditions);
  if (v.length > before) return undefined;
  // Checked above.
  const r = record as unknown as Pick<Article, 'currency' | 'tax' | 'blockPrices'> & {
    readonly priceConditions?: Omit<PriceConditions, 'territories'> & { readonly territories?: readonly string[] };
  };
  const conditions = r.priceConditions;
  if (conditions !== undefined && !validAt(conditions, terms.now)) return ownPricesWaiting(conditions, terms.now);
  const end = conditions?.validUntil === undefined ? undefined : endMoment(conditions.validUntil);
  return {
    ...(end !== undefined ? { changesAt: new Date(end).toISOString() } : {}),
    currency: r.currency,
    tax: taxFromShop && terms.defaultTax ? terms.defaultTax : r.tax,
    blockPrices: r.blockPrices,
    ...(conditions !== undefined || taxFromShop
      ? {
          priceConditions: {
            ...conditions,
            territories: conditions?.territories ?? [],
            ...(taxFromShop ? { taxFromShop: true } : {}),
          },
        }
      : {}),
  };
}

/** A record whose own prices (`priceConditions`) are not valid at `now`: kept until `validFrom`, or new prices. */
function ownPricesWaiting(
  conditions: { readonly validFrom?: string; readonly validUntil?: string },
  now: string,
): { readonly waiting: WaitingPrices; readonly reasons: readonly RecordViolation[] } {
  const { validFrom, validUntil } = conditions;
  const ended = validUntil !== undefined && !validAt({ validUntil }, now);
  const from = validFrom === undefined || ended ? Number.NaN : Date.parse(validFrom);
  const span = [
    validFrom !== undefined ? `from ${validFrom}` : '',
    validUntil !== undefined ? `until ${validUntil}` : '',
  ]
    .filter((t) => t !== '')
    .join(' ');
  return {
    waiting: { offers: [], ...(Number.isNaN(from) ? {} : { searchableFrom: new Date(from).toISOString() }) },
    reasons: [{ path: '/priceConditions', message: `the prices are valid ${span}, not now` }],
  };
}

/** Order details whose minimum order quantity is at least `firstBound` (the first block price's). */
function atLeastFirstBound(order: Article['orderDetails'], firstBound: number): Article['orderDetails'] {
  return order.minimumOrderQuantity >= firstBound ? order : { ...order, minimumOrderQuantity: firstBound };
}

/** The references as stored; the record's own array when every one already names an article id. */
function referencesOf(
  refs: readonly Parameters<typeof referenceOf>[0][] | undefined,
  shopId: string,
): Article['references'] {
  if (refs === undefined) return [];
  return refs.every((ref) => ref.refId !== undefined)
    ? (refs as Article['references'])
    : refs.map((ref) => referenceOf(ref, shopId));
}

/**
 * A reference as stored: `refId` as given (an article id), or, for one given by the referenced
 * article's `supplierArticleId` (as BMEcat's `ART_ID_TO` does), the id of that article in this shop.
 */
function referenceOf(
  ref: { readonly articleReferenceType: string; readonly refId?: string; readonly supplierArticleId?: string },
  shopId: string,
): Article['references'][number] {
  return {
    articleReferenceType: ref.articleReferenceType,
    refId: ref.refId ?? `${shopId}:${ref.supplierArticleId}`,
  };
}

const LANGUAGE_SET: ReadonlySet<unknown> = new Set(LANGUAGES);

/** Order details with the decimal's default digits and the units mapped (the provider's kept beside them). */
function orderDetailsOf(order: Article['orderDetails']): Article['orderDetails'] {
  const { orderUnit, contentUnit, numberOfContentUnitsPerOrderUnit: perOrderUnit } = order;
  const mappedOrderUnit = normalizeUnitCode(orderUnit) ?? orderUnit;
  const mappedContentUnit = contentUnit === undefined ? undefined : (normalizeUnitCode(contentUnit) ?? contentUnit);
  return {
    ...order,
    orderUnit: mappedOrderUnit,
    ...(mappedContentUnit !== undefined ? { contentUnit: mappedContentUnit } : {}),
    ...(perOrderUnit ? { numberOfContentUnitsPerOrderUnit: withDigits(perOrderUnit) } : {}),
    ...(mappedOrderUnit !== orderUnit ? { providerOrderUnit: orderUnit } : {}),
    ...(mappedContentUnit !== contentUnit ? { providerContentUnit: contentUnit } : {}),
  };
}

/** A decimal with `decimalDigits` (the wire's default 0 when the record leaves it out). */
function withDigits(d: Decimal): Decimal {
  return d.decimalDigits === undefined ? { value: d.value, decimalDigits: 0 } : d;
}

/** Checks one array item; `path` builds the item's pointer, called only for a violation. */
type ItemCheck = (v: RecordViolation[], item: unknown, path: () => string) => void;

function str(v: RecordViolation[], o: Json, key: string, path: string, required: boolean): void {
  const value = o[key];
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value === '')
    v.push({ path: `${path}/${key}`, message: 'must be a non-empty string' });
}

function int(v: RecordViolation[], o: Json, key: string, path: string, min: number, required: boolean): void {
  const value = o[key];
  if (value === undefined && !required) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    v.push({ path: `${path}/${key}`, message: `must be an integer >= ${min}` });
}

function dec(v: RecordViolation[], value: unknown, path: string): void {
  if (
    !isObject(value) ||
    !Number.isSafeInteger(value.value) ||
    (value.decimalDigits !== undefined && !Number.isSafeInteger(value.decimalDigits))
  ) {
    v.push({ path, message: 'must be a decimal {value: integer, decimalDigits: integer}' });
  }
}

function arr(v: RecordViolation[], o: Json, key: string, each: ItemCheck): void {
  const value = o[key];
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    v.push({ path: `/${key}`, message: 'must be an array' });
    return;
  }
  for (let i = 0; i < value.length; i += 1) each(v, value[i], () => `/${key}/${i}`);
}

function unit(v: RecordViolation[], o: Json, key: string, required: boolean): void {
  const value = o[key];
  if (value === undefined && !required) return;
  if (value === '' || (value === undefined && required))
    v.push({ path: `/orderDetails/${key}`, message: 'must be a non-empty string' });
  else if (typeof value !== 'string' || normalizeUnitCode(value) === undefined)
    v.push({
      path: `/orderDetails/${key}`,
      message: `unit ${JSON.stringify(value)} is neither one of the accepted unit codes nor mapped to one`,
    });
}

function localized(v: RecordViolation[], item: unknown, path: () => string): void {
  if (!isObject(item) || typeof item.value !== 'string')
    v.push({ path: path(), message: 'must be {lang, value: string}' });
  else if (!LANGUAGE_SET.has(item.lang))
    v.push({ path: `${path()}/lang`, message: `language ${JSON.stringify(item.lang)} is not one the API knows` });
}

/** Block prices: each `{lowerBound, amount}`, lower bounds ascending (state per record). */
function blockPrices(): ItemCheck {
  let previous = 0;
  return (v, item, path) => {
    if (!isObject(item)) return void v.push({ path: path(), message: 'must be {lowerBound, amount}' });
    const lowerBound = item.lowerBound;
    if (typeof lowerBound !== 'number' || !Number.isSafeInteger(lowerBound) || lowerBound < 1)
      v.push({ path: `${path()}/lowerBound`, message: 'must be an integer >= 1' });
    dec0(v, item.amount, path, '/amount');
    const bound = Number(lowerBound);
    if (bound <= previous) v.push({ path: `${path()}/lowerBound`, message: 'lower bounds must ascend' });
    previous = bound;
  };
}

function specialTax(v: RecordViolation[], item: unknown, path: () => string): void {
  if (!isObject(item)) return void v.push({ path: path(), message: 'must be {amount, taxType}' });
  dec0(v, item.amount, path, '/amount');
  if (typeof item.taxType !== 'string' || item.taxType === '')
    v.push({ path: `${path()}/taxType`, message: 'must be a non-empty string' });
}

function classification(v: RecordViolation[], item: unknown, path: () => string): void {
  if (!isObject(item)) return void v.push({ path: path(), message: 'must be {systemName, groupId, features}' });
  for (const key of ['systemName', 'groupId']) {
    const value = item[key];
    if (typeof value !== 'string' || value === '')
      v.push({ path: `${path()}/${key}`, message: 'must be a non-empty string' });
  }
  for (const key of ['groupName', 'groupId2']) {
    const value = item[key];
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      v.push({ path: `${path()}/${key}`, message: 'must be a non-empty string' });
  }
}

function image(v: RecordViolation[], item: unknown, path: () => string): void {
  if (!isObject(item)) return void v.push({ path: path(), message: 'must be {mimeType, href, purpose, descriptions}' });
  for (const key of ['mimeType', 'href']) {
    const value = item[key];
    if (typeof value !== 'string' || value === '')
      v.push({ path: `${path()}/${key}`, message: 'must be a non-empty string' });
  }
  for (const key of ['descriptions', 'alts', 'hrefs']) {
    const texts = item[key];
    if (texts === undefined) continue;
    if (!Array.isArray(texts)) v.push({ path: `${path()}/${key}`, message: 'must be an array' });
    else for (let i = 0; i < texts.length; i += 1) localized(v, texts[i], () => `${path()}/${key}/${i}`);
  }
}

function reference(v: RecordViolation[], item: unknown, path: () => string): void {
  if (!isObject(item) || typeof item.articleReferenceType !== 'string' || item.articleReferenceType === '')
    return void v.push({ path: path(), message: 'must be {articleReferenceType, refId or supplierArticleId}' });
  const target = item.refId ?? item.supplierArticleId;
  if (typeof target !== 'string' || target === '')
    v.push({
      path: path(),
      message: 'must name the referenced article: refId or supplierArticleId, a non-empty string',
    });
}

function typedValue(v: RecordViolation[], item: unknown, path: () => string): void {
  if (!isObject(item) || typeof item.type !== 'string' || typeof item.value !== 'string' || item.value === '')
    v.push({ path: path(), message: 'must be {type: string, value: non-empty string}' });
}

function priceConditions(v: RecordViolation[], value: unknown): void {
  if (!isObject(value)) return void v.push({ path: '/priceConditions', message: 'must be an object' });
  for (const key of ['validFrom', 'validUntil']) {
    const date = value[key];
    if (date !== undefined && (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(date)))
      v.push({ path: `/priceConditions/${key}`, message: 'must be an ISO 8601 date or date-time' });
  }
  const territories = value.territories;
  if (territories !== undefined && (!Array.isArray(territories) || !territories.every((t) => typeof t === 'string')))
    v.push({ path: '/priceConditions/territories', message: 'must be an array of country codes' });
}

/** `dec` for a member of an array item (path built only on a violation). */
function dec0(v: RecordViolation[], value: unknown, path: () => string, suffix: string): void {
  if (
    !isObject(value) ||
    !Number.isSafeInteger(value.value) ||
    (value.decimalDigits !== undefined && !Number.isSafeInteger(value.decimalDigits))
  ) {
    v.push({ path: `${path()}${suffix}`, message: 'must be a decimal {value: integer, decimalDigits: integer}' });
  }
}
