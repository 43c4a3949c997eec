import { integer, taxOf, decimalOf, text, type XmlNode } from './bmecat-node.js';
import type { Decimal } from '../model/decimal.js';

export interface Price {
  readonly lowerBound: number;
  readonly amount: Decimal | undefined;
  readonly currency: string | undefined;
  readonly tax: Decimal | undefined;
}

/** The ladder with when and where it applies: the `DATETIME`s of its price details and its prices' `TERRITORY`s. */
export interface Ladder {
  readonly prices: Price[];
  readonly conditions: Record<string, unknown> | undefined;
}

/**
 * The price ladder: `net_customer` prices, else `net_list` ones, by lower bound; with the validity
 * dates of the price details that hold them and the territories of those prices.
 */
export function ladderOf(priceDetails: readonly XmlNode[], currency: string | undefined): Ladder {
  const customer: XmlNode[] = [];
  const list: XmlNode[] = [];
  let customerDetails: XmlNode | undefined;
  let listDetails: XmlNode | undefined;
  for (const details of priceDetails) {
    const article: XmlNode[] = [];
    const product: XmlNode[] = [];
    for (const p of details.children) {
      if (p.name === 'ARTICLE_PRICE') article.push(p);
      else if (p.name === 'PRODUCT_PRICE') product.push(p);
    }
    for (const p of article.concat(product)) {
      const type = p.attributes.price_type;
      if (type === 'net_customer') {
        customer.push(p);
        customerDetails ??= details;
      } else if (type === 'net_list') {
        list.push(p);
        listDetails ??= details;
      }
    }
  }
  let territories: Set<string> | undefined; // most prices have none
  const ladder = (customer.length > 0 ? customer : list).map((p): Price => {
    let lowerBound: XmlNode | undefined;
    let amount: XmlNode | undefined;
    let priceCurrency: XmlNode | undefined;
    let tax: XmlNode | undefined;
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
        case 'TERRITORY': {
          const territory = c.text.trim();
          if (territory !== '') (territories ??= new Set()).add(territory);
          break;
        }
      }
    }
    return {
      lowerBound: integer(text(lowerBound)) ?? 1,
      amount: decimalOf(text(amount)),
      currency: text(priceCurrency) ?? currency,
      tax: taxOf(text(tax)),
    };
  });
  ladder.sort((a, b) => a.lowerBound - b.lowerBound);
  return { prices: ladder, conditions: conditionsOf(customer.length > 0 ? customerDetails : listDetails, territories) };
}

/** `priceConditions` of a ladder; undefined when the catalog says nothing of when or where. */
export function conditionsOf(
  details: XmlNode | undefined,
  territories: ReadonlySet<string> | undefined,
): Record<string, unknown> | undefined {
  let validFrom: string | undefined;
  let validUntil: string | undefined;
  for (const c of details?.children ?? []) {
    if (c.name !== 'DATETIME') continue;
    if (c.attributes.type === 'valid_start_date') validFrom ??= dateTimeOf(c);
    else if (c.attributes.type === 'valid_end_date') validUntil ??= dateTimeOf(c);
  }
  if (validFrom === undefined && validUntil === undefined && territories === undefined) return undefined;
  return {
    ...(validFrom !== undefined ? { validFrom } : {}),
    ...(validUntil !== undefined ? { validUntil } : {}),
    territories: territories ? [...territories] : [],
  };
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
