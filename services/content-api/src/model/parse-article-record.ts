import { LANGUAGES, type Article } from './article.js';
import { isUnitCode } from './unit-codes.js';

/** One problem of an import record: where (JSON pointer) and what. */
export interface RecordViolation {
  readonly path: string;
  readonly message: string;
}

export type ParsedRecord = { readonly ok: true; readonly article: Article } | { readonly ok: false; readonly violations: readonly RecordViolation[] };

type Json = Record<string, unknown>;

/**
 * Checks one record of our JSON Lines article shape (`Article` without `id` and `shopId`, which
 * the import sets: `id` = `<shopId>:<supplierArticleId>`) and returns the article or every
 * violation. Decimals must be `{value, decimalDigits}` integers, unit codes from the spec's set,
 * languages from the known list, block prices ascending from lower bound 1.
 */
export function parseArticleRecord(record: unknown, shopId: string): ParsedRecord {
  const v: RecordViolation[] = [];
  if (!isObject(record)) return { ok: false, violations: [{ path: '', message: 'must be a JSON object' }] };
  const str = (o: Json, key: string, path: string, required = true) => {
    const value = o[key];
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || value === '') v.push({ path: `${path}/${key}`, message: 'must be a non-empty string' });
  };
  const int = (o: Json, key: string, path: string, min: number, required = true) => {
    const value = o[key];
    if (value === undefined && !required) return;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) v.push({ path: `${path}/${key}`, message: `must be an integer >= ${min}` });
  };
  const dec = (value: unknown, path: string) => {
    if (!isObject(value) || !Number.isSafeInteger(value.value) || (value.decimalDigits !== undefined && !Number.isSafeInteger(value.decimalDigits))) {
      v.push({ path, message: 'must be a decimal {value: integer, decimalDigits: integer}' });
    }
  };
  const arr = (o: Json, key: string, path: string, each: (item: unknown, path: string) => void) => {
    const value = o[key];
    if (value === undefined) return;
    if (!Array.isArray(value)) v.push({ path: `${path}/${key}`, message: 'must be an array' });
    else value.forEach((item, i) => each(item, `${path}/${key}/${i}`));
  };
  const localized = (item: unknown, path: string) => {
    if (!isObject(item) || typeof item.value !== 'string') v.push({ path, message: 'must be {lang, value: string}' });
    else if (!(LANGUAGES as readonly unknown[]).includes(item.lang)) v.push({ path: `${path}/lang`, message: `unknown language ${String(item.lang)}` });
  };
  const unit = (o: Json, key: string, path: string, required: boolean) => {
    const value = o[key];
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || !isUnitCode(value)) v.push({ path: `${path}/${key}`, message: `${JSON.stringify(value)} is not an accepted unit code` });
  };

  str(record, 'supplierArticleId', '');
  str(record, 'description', '');
  str(record, 'currency', '');
  str(record, 'manufacturerName', '', false);
  str(record, 'manufacturerArticleId', '', false);
  if (!Array.isArray(record.descriptions) || record.descriptions.length === 0) v.push({ path: '/descriptions', message: 'must be a non-empty array' });
  arr(record, 'descriptions', '', localized);
  arr(record, 'descriptionsLong', '', localized);
  dec(record.tax, '/tax');
  if (!Array.isArray(record.blockPrices) || record.blockPrices.length === 0) v.push({ path: '/blockPrices', message: 'must be a non-empty array' });
  let previous = 0;
  arr(record, 'blockPrices', '', (item, path) => {
    if (!isObject(item)) return void v.push({ path, message: 'must be {lowerBound, amount}' });
    int(item, 'lowerBound', path, 1);
    dec(item.amount, `${path}/amount`);
    const bound = Number(item.lowerBound);
    if (previous === 0 && bound !== 1) v.push({ path: `${path}/lowerBound`, message: 'the first block price must start at 1' });
    if (bound <= previous) v.push({ path: `${path}/lowerBound`, message: 'lower bounds must ascend' });
    previous = bound;
  });
  arr(record, 'specialTaxes', '', (item, path) => {
    if (!isObject(item)) return void v.push({ path, message: 'must be {amount, taxType}' });
    dec(item.amount, `${path}/amount`);
    str(item, 'taxType', path);
  });
  const od = record.orderDetails;
  if (!isObject(od)) v.push({ path: '/orderDetails', message: 'must be an object' });
  else {
    unit(od, 'orderUnit', '/orderDetails', true);
    unit(od, 'contentUnit', '/orderDetails', false);
    if (od.numberOfContentUnitsPerOrderUnit !== undefined) dec(od.numberOfContentUnitsPerOrderUnit, '/orderDetails/numberOfContentUnitsPerOrderUnit');
    int(od, 'minimumOrderQuantity', '/orderDetails', 1);
    int(od, 'orderQuantityInterval', '/orderDetails', 1);
    int(od, 'priceQuantity', '/orderDetails', 1);
    int(od, 'deliveryTime', '/orderDetails', 0, false);
  }
  arr(record, 'classifications', '', (item, path) => {
    if (!isObject(item)) return void v.push({ path, message: 'must be {systemName, groupId, features}' });
    str(item, 'systemName', path);
    str(item, 'groupId', path);
  });
  arr(record, 'images', '', (item, path) => {
    if (!isObject(item)) return void v.push({ path, message: 'must be {mimeType, href, purpose, descriptions}' });
    str(item, 'mimeType', path);
    str(item, 'href', path);
  });
  if (v.length > 0) return { ok: false, violations: v };
  const r = record as unknown as Omit<Article, 'id' | 'shopId'>;
  const article: Article = {
    ...r,
    id: `${shopId}:${r.supplierArticleId}`,
    shopId,
    descriptionsLong: r.descriptionsLong ?? [],
    internationalArticleIds: r.internationalArticleIds ?? [],
    keywords: r.keywords ?? [],
    specialTaxes: r.specialTaxes ?? [],
    classifications: (r.classifications ?? []).map((c) => ({ ...c, features: c.features ?? [] })),
    images: (r.images ?? []).map((i) => ({ ...i, purpose: i.purpose ?? 'normal', descriptions: i.descriptions ?? [] })),
    references: r.references ?? [],
  };
  return { ok: true, article };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
