import { integer, taxOf, decimalOf, text, type XmlNode } from './bmecat-node.js';
import type { OfferPrice, PriceOffer } from '../model/choose-price-offer.js';
import type { Decimal } from '../model/decimal.js';

/**
 * The price ladders an item offers (`choosePriceOffer` picks one by the shop's terms): per price
 * details element (`ARTICLE_PRICE_DETAILS` / `PRODUCT_PRICE_DETAILS`, each with its validity
 * `DATETIME`s), one ladder per `price_type` and currency (`PRICE_CURRENCY`, else the header's
 * `currency`), in file order. Every price type is read (`net_customer`, `net_list`, `gros_list`,
 * `nrp`, `udp_*`, a supplier's own); each price with its `LOWER_BOUND` (1 when absent),
 * `PRICE_AMOUNT` (its text when it is no number), `PRICE_FACTOR`, `TAX` or BMEcat 2005
 * `TAX_DETAILS/TAX`, and `TERRITORY`s.
 */
export function offersOf(priceDetails: readonly XmlNode[], currency: string | undefined): PriceOffer[] {
  const offers: PriceOffer[] = [];
  for (const details of priceDetails) {
    let validFrom: string | undefined;
    let validUntil: string | undefined;
    for (const c of details.children) {
      if (c.name !== 'DATETIME') continue;
      if (c.attributes.type === 'valid_start_date') validFrom ??= dateTimeOf(c);
      else if (c.attributes.type === 'valid_end_date') validUntil ??= dateTimeOf(c);
    }
    // Every item is read: a few ladders searched in order, no map or set per item (profiled).
    const ladders: Ladder[] = [];
    for (const element of PRICE_ELEMENTS)
      for (const p of details.children) {
        if (p.name !== element) continue;
        const { price, currency: own, territories } = priceOf(p);
        const type = p.attributes.price_type ?? '';
        const cur = own ?? currency;
        let ladder = ladders.find((l) => l.type === type && l.currency === cur);
        if (!ladder) {
          ladder = { element, type, currency: cur, prices: [], territories: [] };
          ladders.push(ladder);
        }
        ladder.prices.push(price);
        for (const t of territories) if (!ladder.territories.includes(t)) ladder.territories.push(t);
      }
    for (const l of ladders) {
      // In the members' order (stored with waiting records): the last two are always set.
      const offer: Partial<Mutable<PriceOffer>> = { element: l.element, priceType: l.type };
      if (l.currency !== undefined) offer.currency = l.currency;
      if (validFrom !== undefined) offer.validFrom = validFrom;
      if (validUntil !== undefined) offer.validUntil = validUntil;
      offer.territories = l.territories;
      offer.prices = l.prices;
      offers.push(offer as PriceOffer);
    }
  }
  return offers;
}

/** The price elements of a price details element, `ARTICLE_PRICE`s (BMEcat 1.2) first. */
const PRICE_ELEMENTS = ['ARTICLE_PRICE', 'PRODUCT_PRICE'] as const;

/** One ladder being read: the prices of one type and currency. */
interface Ladder {
  readonly element: string;
  readonly type: string;
  readonly currency: string | undefined;
  readonly prices: OfferPrice[];
  readonly territories: string[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One `ARTICLE_PRICE` / `PRODUCT_PRICE`. */
function priceOf(p: XmlNode): { price: OfferPrice; currency: string | undefined; territories: string[] } {
  let lowerBound: XmlNode | undefined;
  let amount: XmlNode | undefined;
  let priceCurrency: XmlNode | undefined;
  let tax: XmlNode | undefined;
  let factor: XmlNode | undefined;
  let taxDetails: Decimal | undefined;
  const territories: string[] = [];
  for (const c of p.children) {
    switch (c.name) {
      case 'LOWER_BOUND':
        lowerBound ??= c;
        break;
      case 'PRICE_AMOUNT':
        amount ??= c;
        break;
      case 'PRICE_CURRENCY':
        priceCurrency ??= c;
        break;
      case 'TAX':
        tax ??= c;
        break;
      case 'PRICE_FACTOR':
        factor ??= c;
        break;
      case 'TAX_DETAILS':
        taxDetails ??= taxDetailsOf(c);
        break;
      case 'TERRITORY': {
        const territory = c.text.trim();
        if (territory !== '') territories.push(territory);
        break;
      }
    }
  }
  const amountText = text(amount);
  const parsedAmount = decimalOf(amountText);
  const parsedTax = taxOf(text(tax)) ?? taxDetails;
  const parsedFactor = decimalOf(text(factor));
  const cur = text(priceCurrency);
  // Members added one by one, in one order: one shape for all prices, no spread objects.
  const price: Mutable<OfferPrice> = { lowerBound: integer(text(lowerBound)) ?? 1 };
  if (parsedAmount) price.amount = parsedAmount;
  else if (amountText) price.amountText = amountText;
  if (parsedFactor) price.factor = parsedFactor;
  if (parsedTax) price.tax = parsedTax;
  return { price, currency: cur === '' ? undefined : cur, territories };
}

/**
 * The VAT rate of a BMEcat 2005 `TAX_DETAILS`: its `TAX`, or 0 for `TAX_CATEGORY` `zero_rate` or
 * `exemption` without one; undefined for another `TAX_TYPE` than `vat` (such as a special tax).
 */
function taxDetailsOf(node: XmlNode): Decimal | undefined {
  let tax: XmlNode | undefined;
  let type: XmlNode | undefined;
  let category: XmlNode | undefined;
  for (const c of node.children) {
    if (c.name === 'TAX') tax ??= c;
    else if (c.name === 'TAX_TYPE') type ??= c;
    else if (c.name === 'TAX_CATEGORY') category ??= c;
  }
  const kind = text(type)?.toLowerCase();
  if (kind !== undefined && kind !== '' && kind !== 'vat') return undefined;
  const rate = taxOf(text(tax));
  if (rate) return rate;
  const cat = text(category)?.toLowerCase();
  return cat === 'zero_rate' || cat === 'exemption' ? { value: 0, decimalDigits: 0 } : undefined;
}

/** A BMEcat `DATETIME` (`DATE`, optional `TIME` and `TIMEZONE`) as ISO 8601: `2001-01-01` or `2001-01-01T08:00:00Z`. */
export function dateTimeOf(node: XmlNode): string | undefined {
  let date: string | undefined;
  let time: string | undefined;
  let zone: string | undefined;
  for (const c of node.children) {
    if (c.name === 'DATE') date ??= c.text.trim();
    else if (c.name === 'TIME') time ??= c.text.trim();
    else if (c.name === 'TIMEZONE') zone ??= c.text.trim();
  }
  if (!date) return undefined;
  return time ? `${date}T${time}${zone ?? ''}` : date;
}
