import { isObject } from '@triad/common';
import type { BlockPrice, PriceConditions } from './article.js';
import type { Decimal } from './decimal.js';
import { netAmount } from './net-amount.js';
import { endMoment } from './price-schedule.js';
import { isGrossPriceType, type ShopPriceTerms } from './shop-price-terms.js';

/** One price of a `PriceOffer` as the catalog gives it (BMEcat `ARTICLE_PRICE`). */
export interface OfferPrice {
  /** `LOWER_BOUND`; 1 when the catalog gives none. */
  readonly lowerBound: number;
  /** `PRICE_AMOUNT`; absent when the catalog gives none or no number (then `amountText`). */
  readonly amount?: Decimal;
  readonly amountText?: string;
  /** `PRICE_FACTOR`: the amount is multiplied by it. */
  readonly factor?: Decimal;
  /** `TAX` or `TAX_DETAILS/TAX`, as a fraction. */
  readonly tax?: Decimal;
}

/**
 * A price ladder a catalog offers: the prices of one BMEcat `price_type` in one currency within
 * one price details element (`ARTICLE_PRICE_DETAILS`), with its validity and territories. The
 * BMEcat reader hands an item's ladders to the record check as the record's `priceOffers`.
 */
export interface PriceOffer {
  /** The element the prices are: `ARTICLE_PRICE` or `PRODUCT_PRICE` (for messages). */
  readonly element: string;
  readonly priceType: string;
  /** `PRICE_CURRENCY`, else the header's `CURRENCY`; absent when neither is given. */
  readonly currency?: string;
  readonly validFrom?: string;
  readonly validUntil?: string;
  readonly territories: readonly string[];
  readonly prices: readonly OfferPrice[];
}

interface RecordViolationLike {
  readonly path: string;
  readonly message: string;
}

/** The prices taken from the offers: what the article stores. */
export interface ChosenPrices {
  readonly currency: string;
  readonly tax: Decimal;
  /** Net, ascending lower bounds (the first may be above 1). */
  readonly blockPrices: readonly BlockPrice[];
  /** Always for a chosen offer; for a record's own prices when it gives conditions or took the default tax. */
  readonly priceConditions?: PriceConditions;
}

/**
 * Why an item has no price usable now though its ladders may give one later: it is kept, not
 * searchable (decision 0033, "Keeping records without a current price").
 */
export interface WaitingPrices {
  /** ISO 8601 date-time (UTC) at which the earliest usable ladder to come starts; absent: none will by itself. */
  readonly searchableFrom?: string;
  /** The item's ladders that have not ended (of any type or currency: the shop's terms may change). */
  readonly offers: readonly PriceOffer[];
}

export type ChosenPricesResult =
  | ({
      readonly ok: true;
      /**
       * ISO 8601 date-time (UTC) at which the choice may change: the ladder taken ends, or a
       * usable ladder of its type or a more preferred one starts. Absent: it holds until new prices.
       */
      readonly changesAt?: string;
    } & ChosenPrices)
  | {
      readonly ok: false;
      /** Why no ladder is taken, in BMEcat's words with how to fix it. */
      readonly violations: readonly { readonly path: string; readonly message: string }[];
      /**
       * Set when the item is to be kept, not searchable (the violations then say why): it has no
       * price at all, or ladders of the shop's currency and types that ended, start later or lack
       * an amount or a tax. Absent: the item is refused (another currency, types the shop does not
       * take, a ladder that is wrong in itself).
       */
      readonly waiting?: WaitingPrices;
    };

/**
 * Chooses an item's prices from the ladders its catalog offers, by the shop's terms: the first
 * of the shop's `priceTypes` that has a usable ladder in the shop's currency valid at `terms.now`
 * (no `valid_end_date` passed, no `valid_start_date` to come; of several, the first in the file).
 * Its amounts are made net (`netAmount`: times `PRICE_FACTOR`, a `gros_*` type divided by
 * `1 + tax`); its tax is its first price's `TAX`, else the shop's `defaultTax`
 * (`taxFromShop`). When no ladder qualifies every reason is a violation in BMEcat's words, with
 * how to fix it; the result is `waiting` when the item has no price at all, or has ladders in the
 * shop's currency and types that are not usable now (ended, to come, no amount or no tax): such
 * an item is kept, not searchable, until one is (`searchableFrom`).
 */
export function choosePriceOffer(offers: unknown, terms: ShopPriceTerms): ChosenPricesResult {
  if (!Array.isArray(offers) || !offers.every(isPriceOffer))
    return { ok: false, violations: [{ path: '/priceOffers', message: 'must be an array of price offers' }] };
  if (offers.length === 0)
    return {
      ok: false,
      violations: [
        {
          path: '',
          message:
            'has no price: give an ARTICLE_PRICE_DETAILS/ARTICLE_PRICE ' +
            '(BMEcat 2005: PRODUCT_PRICE_DETAILS/PRODUCT_PRICE)',
        },
      ],
      waiting: { offers: [] },
    };
  const reasons: string[] = [];
  const shop = terms.shopId;
  // Ladders of the shop's currency and types: they make an item kept rather than refused.
  const ours: PriceOffer[] = [];
  for (const type of terms.priceTypes) {
    const ofType = offers.filter((o) => o.priceType === type);
    if (ofType.length === 0) continue;
    const inCurrency = ofType.filter(
      (o) => o.currency !== undefined && (terms.currency === undefined || o.currency === terms.currency),
    );
    ours.push(...inCurrency);
    const valid = inCurrency.filter((o) => validAt(o, terms.now));
    for (const candidate of valid) {
      const priced = pricesOf(candidate, terms);
      if (priced.ok) return withChangesAt(priced, candidate, ours, terms);
      // A ladder wrong in itself (a bound twice, an amount too large) is the supplier's to fix.
      if (priced.wrong) return { ok: false, violations: priced.violations };
      reasons.push(...priced.violations.map((v) => v.message));
    }
    const name = `${ofType[0]?.element ?? 'ARTICLE_PRICE'} price_type="${type}"`;
    const others = [...new Set(ofType.flatMap((o) => (o.currency !== undefined ? [o.currency] : [])))];
    if (valid.length > 0) continue;
    if (inCurrency.length > 0) reasons.push(`every ${name} is out of its validity now: ${validityText(inCurrency)}`);
    else if (others.length > 0)
      reasons.push(
        `${name}: PRICE_CURRENCY ${others.join(', ')}: shop ${shop} accepts ${terms.currency ?? 'another'} ` +
          `(import the catalog into a shop in ${others.join(' or ')}, ` +
          `or give prices in ${terms.currency ?? 'its currency'})`,
      );
    else
      reasons.push(
        `${name} has no PRICE_CURRENCY and the header no CURRENCY: give one` +
          (terms.currency !== undefined ? ` (shop ${shop} accepts ${terms.currency})` : ''),
      );
  }
  const [offer] = offers;
  if (reasons.length === 0 && offer) {
    const types = [...new Set(offers.map((o) => o.priceType))];
    reasons.push(
      `${offer.element} price_type ${types.map((t) => `"${t}"`).join(', ')}: shop ${shop} takes ` +
        `${terms.priceTypes.join(', ')}; allow one with: triad shops update ${shop} --price-types ` +
        `${[...terms.priceTypes, offer.priceType].join(',')}`,
    );
  }
  const violations = reasons.map((message) => ({ path: '', message }));
  if (ours.length === 0) return { ok: false, violations };
  const searchableFrom = firstStart(ours, terms);
  return {
    ok: false,
    violations,
    waiting: {
      ...(searchableFrom !== undefined ? { searchableFrom } : {}),
      offers: offers.filter((o) => !endedAt(o, terms.now)),
    },
  };
}

/**
 * The chosen prices with when they may change: the end of `chosen`, or the start of the first
 * usable ladder to come of `preferred` (the shop's currency, the chosen type or a more preferred one).
 */
function withChangesAt(
  priced: { readonly ok: true } & ChosenPrices,
  chosen: PriceOffer,
  preferred: readonly PriceOffer[],
  terms: ShopPriceTerms,
): { readonly ok: true; readonly changesAt?: string } & ChosenPrices {
  const end = chosen.validUntil === undefined ? undefined : endMoment(chosen.validUntil);
  const start = firstStart(preferred, terms);
  const at = Math.min(end ?? Infinity, start === undefined ? Infinity : Date.parse(start));
  return at === Infinity ? priced : { ...priced, changesAt: new Date(at).toISOString() };
}

/** When the first of `offers` that starts after `terms.now` and is usable then starts (ISO 8601 UTC). */
function firstStart(offers: readonly PriceOffer[], terms: ShopPriceTerms): string | undefined {
  let first: number | undefined;
  for (const o of offers) {
    if (o.validFrom === undefined || endedAt(o, terms.now) || validAt(o, terms.now)) continue;
    const at = Date.parse(o.validFrom);
    if (Number.isNaN(at) || (first !== undefined && at >= first)) continue;
    if (pricesOf(o, { ...terms, now: new Date(at).toISOString() }).ok) first = at;
  }
  return first === undefined ? undefined : new Date(first).toISOString();
}

/** The ladder's prices, or why it cannot be taken (`wrong`: the ladder contradicts itself). */
function pricesOf(
  offer: PriceOffer,
  terms: ShopPriceTerms,
):
  | ({ readonly ok: true } & ChosenPrices)
  | { readonly ok: false; readonly violations: readonly RecordViolationLike[]; readonly wrong: boolean } {
  const name = `${offer.element} price_type="${offer.priceType}"`;
  const violations: RecordViolationLike[] = [];
  let wrong = false;
  const given = offer.prices.find((p) => p.tax !== undefined)?.tax;
  const tax = given ?? terms.defaultTax;
  if (tax === undefined)
    violations.push({
      path: '',
      message:
        `${name} has no TAX (nor TAX_DETAILS/TAX) and shop ${terms.shopId} has no default tax: give TAX, ` +
        `or set one with: triad shops update ${terms.shopId} --default-tax 0.19`,
    });
  const gross = isGrossPriceType(offer.priceType);
  // Catalogs list a ladder's prices by bound: copied and sorted only when they are not.
  const sorted = isByBound(offer.prices) ? offer.prices : [...offer.prices].sort((a, b) => a.lowerBound - b.lowerBound);
  const blockPrices: BlockPrice[] = [];
  let previous = 0;
  for (const p of sorted) {
    if (p.lowerBound === previous) {
      wrong = true;
      violations.push({ path: '', message: `two ${name} have LOWER_BOUND ${p.lowerBound}` });
    }
    previous = p.lowerBound;
    if (p.amount === undefined) {
      violations.push({
        path: '',
        message:
          p.amountText === undefined
            ? `${name} has no PRICE_AMOUNT`
            : `${name} has PRICE_AMOUNT ${JSON.stringify(p.amountText)}, which is no decimal number (such as 12.50)`,
      });
      continue;
    }
    const priceTax = p.tax ?? tax;
    if (gross && priceTax === undefined) continue;
    try {
      blockPrices.push({
        lowerBound: p.lowerBound,
        amount: netAmount(p.amount, p.factor, gross ? priceTax : undefined),
      });
    } catch {
      wrong = true;
      violations.push({ path: '', message: `${name} has a PRICE_AMOUNT times PRICE_FACTOR too large to keep exactly` });
    }
  }
  if (violations.length > 0 || tax === undefined || offer.currency === undefined)
    return { ok: false, violations, wrong };
  return {
    ok: true,
    currency: offer.currency,
    tax,
    blockPrices,
    priceConditions: {
      ...(offer.validFrom !== undefined ? { validFrom: offer.validFrom } : {}),
      ...(offer.validUntil !== undefined ? { validUntil: offer.validUntil } : {}),
      territories: offer.territories,
      priceType: offer.priceType,
      ...(given === undefined ? { taxFromShop: true } : {}),
    },
  };
}

function isByBound(prices: readonly OfferPrice[]): boolean {
  for (let i = 1; i < prices.length; i += 1) if (prices[i - 1]!.lowerBound > prices[i]!.lowerBound) return false;
  return true;
}

/** Whether the offer's validity holds at `now` (dates without time hold the whole day, UTC). */
export function validAt(offer: Pick<PriceOffer, 'validFrom' | 'validUntil'>, now: string): boolean {
  const { validFrom: from, validUntil: until } = offer;
  // Most ladders have no dates: then nothing is parsed.
  if (until === undefined && from === undefined) return true;
  const today = now.slice(0, 10);
  if (until !== undefined && (isDate(until) ? until < today : Date.parse(until) < Date.parse(now))) return false;
  if (from !== undefined && (isDate(from) ? from > today : Date.parse(from) > Date.parse(now))) return false;
  return true;
}

/** Whether the offer's `valid_end_date` has passed at `now`. */
function endedAt(offer: Pick<PriceOffer, 'validUntil'>, now: string): boolean {
  return offer.validUntil !== undefined && !validAt({ validUntil: offer.validUntil }, now);
}

function isDate(text: string): boolean {
  return text.length === 10;
}

function validityText(offers: readonly PriceOffer[]): string {
  return offers
    .map((o) =>
      [
        o.validFrom !== undefined ? `valid_start_date ${o.validFrom}` : '',
        o.validUntil !== undefined ? `valid_end_date ${o.validUntil}` : '',
      ]
        .filter((t) => t !== '')
        .join(' to '),
    )
    .join('; ');
}

function isDecimal(value: unknown): value is Decimal {
  return isObject(value) && Number.isSafeInteger(value.value) && Number.isSafeInteger(value.decimalDigits);
}

function isOfferPrice(value: unknown): value is OfferPrice {
  return (
    isObject(value) &&
    Number.isSafeInteger(value.lowerBound) &&
    (value.amount === undefined || isDecimal(value.amount)) &&
    (value.amountText === undefined || typeof value.amountText === 'string') &&
    (value.factor === undefined || isDecimal(value.factor)) &&
    (value.tax === undefined || isDecimal(value.tax))
  );
}

function isPriceOffer(value: unknown): value is PriceOffer {
  return (
    isObject(value) &&
    typeof value.element === 'string' &&
    typeof value.priceType === 'string' &&
    (value.currency === undefined || typeof value.currency === 'string') &&
    (value.validFrom === undefined || typeof value.validFrom === 'string') &&
    (value.validUntil === undefined || typeof value.validUntil === 'string') &&
    Array.isArray(value.territories) &&
    value.territories.every((t) => typeof t === 'string') &&
    Array.isArray(value.prices) &&
    value.prices.every(isOfferPrice)
  );
}
