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
    const ladders = new Map<
      string,
      { element: string; type: string; currency: string | undefined; prices: OfferPrice[]; territories: Set<string> }
    >();
    const article: XmlNode[] = [];
    const product: XmlNode[] = [];
    for (const c of details.children) {
      if (c.name === 'ARTICLE_PRICE') article.push(c);
      else if (c.name === 'PRODUCT_PRICE') product.push(c);
      else if (c.name === 'DATETIME') {
        if (c.attributes.type === 'valid_start_date') validFrom ??= dateTimeOf(c);
        else if (c.attributes.type === 'valid_end_date') validUntil ??= dateTimeOf(c);
      }
    }
    for (const p of article.concat(product)) {
      const { price, currency: own, territories } = priceOf(p);
      const type = p.attributes.price_type ?? '';
      const cur = own ?? currency;
      const key = `${type}\u0000${cur ?? ''}`;
      let ladder = ladders.get(key);
      if (!ladder) {
        ladder = { element: p.name, type, currency: cur, prices: [], territories: new Set() };
        ladders.set(key, ladder);
      }
      ladder.prices.push(price);
      for (const t of territories) ladder.territories.add(t);
    }
    for (const l of ladders.values())
      offers.push({
        element: l.element,
        priceType: l.type,
        ...(l.currency !== undefined ? { currency: l.currency } : {}),
        ...(validFrom !== undefined ? { validFrom } : {}),
        ...(validUntil !== undefined ? { validUntil } : {}),
        territories: [...l.territories],
        prices: l.prices,
      });
  }
  return offers;
}

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
  return {
    price: {
      lowerBound: integer(text(lowerBound)) ?? 1,
      ...(parsedAmount ? { amount: parsedAmount } : amountText ? { amountText } : {}),
      ...(parsedFactor ? { factor: parsedFactor } : {}),
      ...(parsedTax ? { tax: parsedTax } : {}),
    },
    currency: cur === '' ? undefined : cur,
    territories,
  };
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
