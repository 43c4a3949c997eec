import { isObject } from '@triad/common';
import { LANGUAGES, isLanguageCode, type BusinessShop, type Money, type StringWithLanguage } from './article.js';
import type { Decimal } from './decimal.js';
import type { RecordViolation } from './parse-article-record.js';

/** Shop ids: a letter or digit, then letters, digits, `.`, `_`, `-`; 64 characters at most. */
export const SHOP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Defaults of a new shop's terms (docs/content-api.md, "Shops"). */
export const SHOP_DEFAULTS = {
  currency: 'EUR',
  returnsAccepted: true,
  /** Days after delivery. */
  returnPeriodDays: 14,
} as const;

/** Bounds of a shop record, checked by `parseShopRecord` and stated in the admin API's schema. */
export const SHOP_LIMITS = {
  nameLength: 200,
  returnPeriodDays: 3650, // 10 years
  conditions: 20,
  conditionLength: 2000,
  countries: 250,
  decimalDigits: 10,
  priceTypes: 20,
  priceTypeLength: 64,
} as const;

/** A BMEcat `price_type`: `net_customer`, `gros_list`, `udp_1`, a supplier's own such as `EK_ohne_MWST`. */
export const PRICE_TYPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export type ParsedShop =
  | { readonly ok: true; readonly shop: BusinessShop }
  | { readonly ok: false; readonly violations: readonly RecordViolation[] };

type Json = Record<string, unknown>;
type Violations = RecordViolation[];

const SECTIONS: Readonly<Record<string, readonly string[]>> = {
  returnPolicy: ['returnsAccepted', 'returnPeriodDays', 'restockingFee', 'conditions'],
  shippingCosts: ['standard', 'freeShippingFrom', 'countries'],
  minimumOrderValue: ['amount', 'surchargeBelow'],
};
/** Members that may be `null` in a change, which removes them. */
const REMOVABLE = new Set(['freeShippingFrom', 'surchargeBelow']);

/**
 * Checks a shop record (`BusinessShop` without `id`, as `--from-json` files and the admin API
 * send it) and returns the shop with `id`, or every violation (JSON pointers into `record`).
 *
 * Without `base` the record is a new shop: `name` is required, everything else has a default
 * (currency EUR, returns accepted within 14 days without fee, shipping and minimum order value 0
 * in the shop's currency). With `base` the record is a change of that shop: members it names
 * replace the stored ones section by section (`null` removes `freeShippingFrom` or
 * `surchargeBelow`). A Money's `currency` may be left out (the shop's); given, it must be the
 * shop's currency, so a shop never quotes two currencies. `defaultTax` (a VAT fraction from 0
 * to 1) and `priceTypes` (BMEcat price types, most preferred first) are optional; `null` removes
 * them in a change. Unknown members are violations.
 */
export function parseShopRecord(id: string, record: unknown, base?: BusinessShop): ParsedShop {
  const v: Violations = [];
  if (!SHOP_ID_PATTERN.test(id))
    v.push({ path: '/id', message: `must match ${SHOP_ID_PATTERN.source} (letters, digits, ".", "_", "-")` });
  if (!isObject(record)) return { ok: false, violations: [...v, { path: '', message: 'must be a JSON object' }] };
  unknownMembers(v, record, '', ['id', 'name', 'currency', 'defaultTax', 'priceTypes', ...Object.keys(SECTIONS)]);
  if (record.id !== undefined && record.id !== id) v.push({ path: '/id', message: `must be ${id} or left out` });
  const name = record.name ?? base?.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > SHOP_LIMITS.nameLength)
    v.push({ path: '/name', message: `must be a non-empty string of at most ${SHOP_LIMITS.nameLength} characters` });
  const currency = record.currency ?? base?.currency ?? SHOP_DEFAULTS.currency;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    v.push({ path: '/currency', message: 'must be an ISO 4217 code of three capital letters, such as EUR' });
  const cur = typeof currency === 'string' ? currency : SHOP_DEFAULTS.currency;
  const zero: Money = { amount: { value: 0, decimalDigits: 0 }, currency: cur };
  const returns = section(v, record, 'returnPolicy', base?.returnPolicy);
  const shipping = section(v, record, 'shippingCosts', base?.shippingCosts);
  const minimum = section(v, record, 'minimumOrderValue', base?.minimumOrderValue);

  const accepted = returns.returnsAccepted ?? SHOP_DEFAULTS.returnsAccepted;
  if (typeof accepted !== 'boolean') v.push({ path: '/returnPolicy/returnsAccepted', message: 'must be a boolean' });
  const days = returns.returnPeriodDays ?? (accepted === false ? 0 : SHOP_DEFAULTS.returnPeriodDays);
  if (!isWholeNumber(days) || days < 0 || days > SHOP_LIMITS.returnPeriodDays)
    v.push({
      path: '/returnPolicy/returnPeriodDays',
      message: `must be a whole number of days from 0 to ${SHOP_LIMITS.returnPeriodDays}`,
    });
  const fee = decimalOf(v, returns.restockingFee ?? zero.amount, '/returnPolicy/restockingFee');
  if (fee && (fee.value < 0 || fee.value > 10 ** fee.decimalDigits))
    v.push({
      path: '/returnPolicy/restockingFee',
      message: 'must be a fraction from 0 to 1 ({value: 10, decimalDigits: 2} is 10 %)',
    });
  const conditions = conditionsOf(v, returns.conditions ?? []);
  const defaultTax = defaultTaxOf(v, record.defaultTax === undefined ? base?.defaultTax : record.defaultTax);
  const priceTypes = priceTypesOf(v, record.priceTypes === undefined ? base?.priceTypes : record.priceTypes);
  const countries = countriesOf(v, shipping.countries ?? []);
  const money = (value: unknown, path: string, fallback?: Money) =>
    value === undefined || value === null ? fallback : moneyOf(v, value, path, cur);
  const standard = money(shipping.standard, '/shippingCosts/standard', zero);
  const freeFrom = money(shipping.freeShippingFrom, '/shippingCosts/freeShippingFrom');
  const amount = money(minimum.amount, '/minimumOrderValue/amount', zero);
  const surcharge = money(minimum.surchargeBelow, '/minimumOrderValue/surchargeBelow');
  if (
    v.length > 0 ||
    !standard ||
    !amount ||
    !fee ||
    typeof name !== 'string' ||
    typeof accepted !== 'boolean' ||
    !isWholeNumber(days)
  )
    return { ok: false, violations: v };
  return {
    ok: true,
    shop: {
      id,
      name,
      currency: cur,
      ...(defaultTax ? { defaultTax } : {}),
      ...(priceTypes ? { priceTypes } : {}),
      returnPolicy: {
        returnsAccepted: accepted,
        returnPeriodDays: days,
        restockingFee: fee,
        conditions,
      },
      shippingCosts: { standard, ...(freeFrom ? { freeShippingFrom: freeFrom } : {}), countries },
      minimumOrderValue: { amount, ...(surcharge ? { surchargeBelow: surcharge } : {}) },
    },
  };
}

/** The section's members: the stored ones, replaced by those the record names (`null` kept, to remove). */
function section(v: Violations, record: Json, name: string, stored: object | undefined): Json {
  const given = record[name];
  const merged: Json = { ...stored };
  if (given === undefined) return merged;
  if (!isObject(given)) {
    v.push({ path: `/${name}`, message: 'must be an object' });
    return merged;
  }
  unknownMembers(v, given, `/${name}`, SECTIONS[name] ?? []);
  for (const [key, value] of Object.entries(given)) {
    if (value === null && !REMOVABLE.has(key)) v.push({ path: `/${name}/${key}`, message: 'must not be null' });
    else if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

function unknownMembers(v: Violations, object: Json, path: string, known: readonly string[]): void {
  for (const key of Object.keys(object))
    if (!known.includes(key))
      v.push({ path: `${path}/${key}`, message: `is not a member of a shop record (known: ${known.join(', ')})` });
}

function decimalOf(v: Violations, value: unknown, path: string): Decimal | undefined {
  if (isObject(value)) {
    const digits = value.decimalDigits ?? 0;
    const units = value.value;
    if (
      typeof units === 'number' &&
      Number.isSafeInteger(units) &&
      isWholeNumber(digits) &&
      digits >= 0 &&
      digits <= SHOP_LIMITS.decimalDigits &&
      Object.keys(value).every((k) => k === 'value' || k === 'decimalDigits')
    )
      return { value: units, decimalDigits: digits };
  }
  v.push({
    path,
    message: `must be a Decimal {value, decimalDigits} of integers, decimalDigits 0 to ${SHOP_LIMITS.decimalDigits}`,
  });
  return undefined;
}

function moneyOf(v: Violations, value: unknown, path: string, currency: string): Money | undefined {
  if (!isObject(value)) {
    v.push({ path, message: 'must be Money {amount: Decimal, currency}' });
    return undefined;
  }
  unknownMembers(v, value, path, ['amount', 'currency']);
  const amount = decimalOf(v, value.amount, `${path}/amount`);
  if (amount && amount.value < 0) v.push({ path: `${path}/amount`, message: 'must not be negative' });
  const given = value.currency ?? currency;
  if (given !== currency) {
    v.push({
      path: `${path}/currency`,
      message: `must be the shop's currency ${currency} (give the amount in ${currency}, or leave currency out)`,
    });
  }
  return amount ? { amount, currency } : undefined;
}

function conditionsOf(v: Violations, value: unknown): StringWithLanguage[] {
  const path = '/returnPolicy/conditions';
  if (!Array.isArray(value) || value.length > SHOP_LIMITS.conditions) {
    v.push({ path, message: `must be an array of at most ${SHOP_LIMITS.conditions} {lang, value}` });
    return [];
  }
  const out: StringWithLanguage[] = [];
  value.forEach((item: unknown, i) => {
    const lang = isObject(item) ? item.lang : undefined;
    const text = isObject(item) ? item.value : undefined;
    if (!isObject(item) || Object.keys(item).some((k) => k !== 'lang' && k !== 'value'))
      v.push({ path: `${path}/${i}`, message: 'must be {lang, value}' });
    else if (!isLanguageCode(lang))
      v.push({ path: `${path}/${i}/lang`, message: `must be one of ${LANGUAGES.join(', ')}` });
    else if (typeof text !== 'string' || text.trim() === '' || text.length > SHOP_LIMITS.conditionLength)
      v.push({
        path: `${path}/${i}/value`,
        message: `must be a non-empty string of at most ${SHOP_LIMITS.conditionLength} characters`,
      });
    else out.push({ lang, value: text });
  });
  return out;
}

function countriesOf(v: Violations, value: unknown): string[] {
  const path = '/shippingCosts/countries';
  const ok =
    Array.isArray(value) &&
    value.length <= SHOP_LIMITS.countries &&
    value.every(isCountryCode) &&
    new Set(value).size === value.length;
  if (!ok) {
    v.push({
      path,
      message: `must be an array of distinct ISO 3166-1 alpha-2 codes (such as DE), at most ${SHOP_LIMITS.countries}`,
    });
    return [];
  }
  return value.filter(isCountryCode);
}

function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value);
}

function isWholeNumber(value: unknown): value is number {
  return Number.isInteger(value);
}

/** The shop's default VAT rate: a fraction from 0 to 1; undefined when absent or `null` (removed). */
function defaultTaxOf(v: Violations, value: unknown): Decimal | undefined {
  if (value === undefined || value === null) return undefined;
  const tax = decimalOf(v, value, '/defaultTax');
  if (tax && (tax.value < 0 || tax.value > 10 ** tax.decimalDigits)) {
    v.push({ path: '/defaultTax', message: 'must be a fraction from 0 to 1 ({value: 19, decimalDigits: 2} is 19 %)' });
    return undefined;
  }
  return tax;
}

/** The shop's price types, most preferred first; undefined when absent or `null` (the defaults). */
function priceTypesOf(v: Violations, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= SHOP_LIMITS.priceTypes &&
    value.every(isPriceType) &&
    new Set(value).size === value.length;
  if (!ok) {
    v.push({
      path: '/priceTypes',
      message:
        `must be an array of 1 to ${SHOP_LIMITS.priceTypes} distinct BMEcat price types ` +
        '(such as net_customer, net_list, gros_list), most preferred first',
    });
    return undefined;
  }
  return value.filter(isPriceType);
}

function isPriceType(value: unknown): value is string {
  return typeof value === 'string' && value.length <= SHOP_LIMITS.priceTypeLength && PRICE_TYPE_PATTERN.test(value);
}
