import { DEFAULT_PRICE_TYPES, type BusinessShop, type Money } from '../model/article.js';
import type { Decimal } from '../model/decimal.js';
import { shopPath, type LinkBuilder } from './links.js';

const dec = (d: Decimal): Decimal => ({ value: d.value, decimalDigits: d.decimalDigits });
const money = (m: Money) => ({ amount: dec(m.amount), currency: m.currency });

function shopLinks(shop: BusinessShop, links: LinkBuilder) {
  return [
    links.link('self', shopPath(shop.id)),
    links.link('return-policy', shopPath(shop.id, 'return-policy')),
    links.link('shipping-costs', shopPath(shop.id, 'shipping-costs')),
    links.link('minimum-order-value', shopPath(shop.id, 'minimum-order-value')),
    links.link('articles', '/api/articles', { businessShopId: shop.id }),
  ];
}

/** A shop as a list member and as the detail resource (then with `_status`). */
export function presentShop(shop: BusinessShop, links: LinkBuilder) {
  return { id: shop.id, name: shop.name, currency: shop.currency, _schema: { links: shopLinks(shop, links) } };
}

/**
 * A sub-resource of a shop: `businessShopId`, the resource's own `fields`, then `_status` and the
 * links `self` and `business-shop`.
 */
function shopSubResource<Fields extends object>(
  shop: BusinessShop,
  sub: 'return-policy' | 'shipping-costs' | 'minimum-order-value',
  fields: Fields,
  links: LinkBuilder,
  timeMs: number,
) {
  return {
    businessShopId: shop.id,
    ...fields,
    _status: { timeMs },
    _schema: { links: [links.link('self', shopPath(shop.id, sub)), links.link('business-shop', shopPath(shop.id))] },
  };
}

const returnPolicyFields = (p: BusinessShop['returnPolicy']) => ({
  returnsAccepted: p.returnsAccepted,
  returnPeriodDays: p.returnPeriodDays,
  restockingFee: dec(p.restockingFee),
  conditions: p.conditions.map((c) => ({ lang: c.lang, value: c.value })),
});

const shippingCostsFields = (s: BusinessShop['shippingCosts']) => ({
  standard: money(s.standard),
  ...(s.freeShippingFrom ? { freeShippingFrom: money(s.freeShippingFrom) } : {}),
  countries: [...s.countries],
});

/** The return policy of a shop. */
export function presentReturnPolicy(shop: BusinessShop, links: LinkBuilder, timeMs: number) {
  return shopSubResource(shop, 'return-policy', returnPolicyFields(shop.returnPolicy), links, timeMs);
}

/** The shipping costs of a shop. */
export function presentShippingCosts(shop: BusinessShop, links: LinkBuilder, timeMs: number) {
  return shopSubResource(shop, 'shipping-costs', shippingCostsFields(shop.shippingCosts), links, timeMs);
}

/** The minimum order value of a shop. */
export function presentMinimumOrderValue(shop: BusinessShop, links: LinkBuilder, timeMs: number) {
  const m = shop.minimumOrderValue;
  const fields = {
    minimumOrderValue: money(m.amount),
    ...(m.surchargeBelow ? { surchargeBelow: money(m.surchargeBelow) } : {}),
  };
  return shopSubResource(shop, 'minimum-order-value', fields, links, timeMs);
}

/** A shop as the client receives it. */
export type ShopReply = ReturnType<typeof presentShop>;

/** A shop's return policy as the client receives it. */
export type ReturnPolicyReply = ReturnType<typeof presentReturnPolicy>;

/** A shop's shipping costs as the client receives it. */
export type ShippingCostsReply = ReturnType<typeof presentShippingCosts>;

/** A shop's minimum order value as the client receives it. */
export type MinimumOrderValueReply = ReturnType<typeof presentMinimumOrderValue>;

/** The whole shop record as the admin API sends it: every member, no links. */
export function presentShopRecord(shop: BusinessShop) {
  const m = shop.minimumOrderValue;
  return {
    id: shop.id,
    name: shop.name,
    currency: shop.currency,
    ...(shop.defaultTax ? { defaultTax: dec(shop.defaultTax) } : {}),
    priceTypes: [...(shop.priceTypes ?? DEFAULT_PRICE_TYPES)],
    returnPolicy: returnPolicyFields(shop.returnPolicy),
    shippingCosts: shippingCostsFields(shop.shippingCosts),
    minimumOrderValue: {
      amount: money(m.amount),
      ...(m.surchargeBelow ? { surchargeBelow: money(m.surchargeBelow) } : {}),
    },
  };
}

/** A shop record as the admin API sends it. */
export type ShopRecordReply = ReturnType<typeof presentShopRecord>;
