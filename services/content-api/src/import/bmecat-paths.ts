import type { RecordViolation } from '../model/parse-article-record.js';

/**
 * Where a member of our record comes from in a BMEcat item, so that a refused BMEcat record is
 * reported in the supplier's words (decision 0034): the element path below the item, in BMEcat
 * 1.2 names and 2005 names, and a hint saying what the element must hold. JSON Lines records keep
 * their JSON pointers. One table, read top to bottom: the first pattern that matches a violation's
 * JSON pointer wins (array indexes are matched by `N`).
 */
interface Source {
  readonly pointer: RegExp;
  /** Element path below `ARTICLE` (BMEcat 1.2). */
  readonly v12: string;
  /** Element path below `PRODUCT` (BMEcat 2005). */
  readonly v2005: string;
  /** What the element must hold. */
  readonly hint?: string;
}

const N = String.raw`\d+`;
const at = (pattern: string) => new RegExp(`^${pattern.replaceAll('N', N)}$`);

const PRICE_12 = 'ARTICLE_PRICE_DETAILS/ARTICLE_PRICE';
const PRICE_2005 = 'PRODUCT_PRICE_DETAILS/PRODUCT_PRICE';
const FEATURES_12 = 'ARTICLE_FEATURES';
const FEATURES_2005 = 'PRODUCT_FEATURES';
const UNIT_HINT = 'give a UN/ECE Recommendation 20 unit code, such as C62 (piece), PK (pack), MTR (metre)';

const SOURCES: readonly Source[] = [
  {
    pointer: at('/supplierArticleId'),
    v12: 'SUPPLIER_AID',
    v2005: 'SUPPLIER_PID',
    hint: "give the supplier's article number, unique in the catalog",
  },
  {
    pointer: at('/(description|descriptions)(/N(/value|/lang)?)?'),
    v12: 'ARTICLE_DETAILS/DESCRIPTION_SHORT',
    v2005: 'PRODUCT_DETAILS/DESCRIPTION_SHORT',
    hint: "give the article's name",
  },
  {
    pointer: at('/descriptionsLong(/N.*)?'),
    v12: 'ARTICLE_DETAILS/DESCRIPTION_LONG',
    v2005: 'PRODUCT_DETAILS/DESCRIPTION_LONG',
  },
  {
    pointer: at('/manufacturerName'),
    v12: 'ARTICLE_DETAILS/MANUFACTURER_NAME',
    v2005: 'PRODUCT_DETAILS/MANUFACTURER_NAME',
  },
  {
    pointer: at('/manufacturerArticleId'),
    v12: 'ARTICLE_DETAILS/MANUFACTURER_AID',
    v2005: 'PRODUCT_DETAILS/MANUFACTURER_PID',
  },
  {
    pointer: at('/internationalArticleIds(/N.*)?'),
    v12: 'ARTICLE_DETAILS/EAN',
    v2005: 'PRODUCT_DETAILS/INTERNATIONAL_PID',
    hint: 'give the GTIN (EAN) digits',
  },
  { pointer: at('/keywords(/N.*)?'), v12: 'ARTICLE_DETAILS/KEYWORD', v2005: 'PRODUCT_DETAILS/KEYWORD' },
  {
    pointer: at('/supplierAlternativeArticleId'),
    v12: 'ARTICLE_DETAILS/SUPPLIER_ALT_AID',
    v2005: 'PRODUCT_DETAILS/SUPPLIER_ALT_PID',
  },
  { pointer: at('/buyerArticleIds(/N.*)?'), v12: 'ARTICLE_DETAILS/BUYER_AID', v2005: 'PRODUCT_DETAILS/BUYER_PID' },
  { pointer: at('/statuses(/N.*)?'), v12: 'ARTICLE_DETAILS/ARTICLE_STATUS', v2005: 'PRODUCT_DETAILS/PRODUCT_STATUS' },
  { pointer: at('/remarks(/N.*)?'), v12: 'ARTICLE_DETAILS/REMARKS', v2005: 'PRODUCT_DETAILS/REMARKS' },
  {
    pointer: at('/specialTreatmentClasses(/N.*)?'),
    v12: 'ARTICLE_DETAILS/SPECIAL_TREATMENT_CLASS',
    v2005: 'PRODUCT_DETAILS/SPECIAL_TREATMENT_CLASS',
  },
  {
    pointer: at('/currency'),
    v12: `${PRICE_12}/PRICE_CURRENCY`,
    v2005: `${PRICE_2005}/PRICE_CURRENCY`,
    hint: "give an ISO 4217 code such as EUR in each price, or once in the header's CATALOG/CURRENCY",
  },
  {
    pointer: at('/tax'),
    v12: `${PRICE_12}/TAX`,
    v2005: `${PRICE_2005}/TAX_DETAILS/TAX`,
    hint: 'give the tax rate as a factor, such as 0.19 for 19 %',
  },
  {
    pointer: at('/blockPrices'),
    v12: PRICE_12,
    v2005: PRICE_2005,
    hint: 'give at least one price',
  },
  {
    pointer: at('/blockPrices/N/amount(/.*)?'),
    v12: `${PRICE_12}/PRICE_AMOUNT`,
    v2005: `${PRICE_2005}/PRICE_AMOUNT`,
    hint: 'give the net amount with a dot as decimal separator, such as 12.50',
  },
  {
    pointer: at('/blockPrices/N/lowerBound'),
    v12: `${PRICE_12}/LOWER_BOUND`,
    v2005: `${PRICE_2005}/LOWER_BOUND`,
    hint: 'give a whole number of order units, each bound once, the prices falling as the bound rises',
  },
  { pointer: at('/blockPrices/N.*'), v12: PRICE_12, v2005: PRICE_2005 },
  {
    pointer: at('/priceConditions/validFrom'),
    v12: 'ARTICLE_PRICE_DETAILS/DATETIME',
    v2005: 'PRODUCT_PRICE_DETAILS/DATETIME',
    hint: 'a DATETIME type="valid_start_date" with DATE as YYYY-MM-DD',
  },
  {
    pointer: at('/priceConditions/validUntil'),
    v12: 'ARTICLE_PRICE_DETAILS/DATETIME',
    v2005: 'PRODUCT_PRICE_DETAILS/DATETIME',
    hint: 'a DATETIME type="valid_end_date" with DATE as YYYY-MM-DD',
  },
  { pointer: at('/priceConditions/territories.*'), v12: `${PRICE_12}/TERRITORY`, v2005: `${PRICE_2005}/TERRITORY` },
  { pointer: at('/(priceConditions|priceOffers).*'), v12: 'ARTICLE_PRICE_DETAILS', v2005: 'PRODUCT_PRICE_DETAILS' },
  {
    pointer: at('/orderDetails'),
    v12: 'ARTICLE_ORDER_DETAILS',
    v2005: 'PRODUCT_ORDER_DETAILS',
    hint: 'give ARTICLE_ORDER_DETAILS with at least ORDER_UNIT',
  },
  {
    pointer: at('/orderDetails/orderUnit'),
    v12: 'ARTICLE_ORDER_DETAILS/ORDER_UNIT',
    v2005: 'PRODUCT_ORDER_DETAILS/ORDER_UNIT',
    hint: UNIT_HINT,
  },
  {
    pointer: at('/orderDetails/contentUnit'),
    v12: 'ARTICLE_ORDER_DETAILS/CONTENT_UNIT',
    v2005: 'PRODUCT_ORDER_DETAILS/CONTENT_UNIT',
    hint: UNIT_HINT,
  },
  {
    pointer: at('/orderDetails/numberOfContentUnitsPerOrderUnit(/.*)?'),
    v12: 'ARTICLE_ORDER_DETAILS/NO_CU_PER_OU',
    v2005: 'PRODUCT_ORDER_DETAILS/NO_CU_PER_OU',
    hint: 'give a number with a dot as decimal separator',
  },
  {
    pointer: at('/orderDetails/minimumOrderQuantity'),
    v12: 'ARTICLE_ORDER_DETAILS/QUANTITY_MIN',
    v2005: 'PRODUCT_ORDER_DETAILS/QUANTITY_MIN',
    hint: 'give a whole number of order units, 1 or more',
  },
  {
    pointer: at('/orderDetails/orderQuantityInterval'),
    v12: 'ARTICLE_ORDER_DETAILS/QUANTITY_INTERVAL',
    v2005: 'PRODUCT_ORDER_DETAILS/QUANTITY_INTERVAL',
    hint: 'give a whole number of order units, 1 or more',
  },
  {
    pointer: at('/orderDetails/priceQuantity'),
    v12: 'ARTICLE_ORDER_DETAILS/PRICE_QUANTITY',
    v2005: 'PRODUCT_ORDER_DETAILS/PRICE_QUANTITY',
    hint: 'give a whole number of order units, 1 or more',
  },
  {
    pointer: at('/orderDetails/deliveryTime'),
    v12: 'ARTICLE_DETAILS/DELIVERY_TIME',
    v2005: 'PRODUCT_DETAILS/DELIVERY_TIME',
    hint: 'give a whole number of working days',
  },
  {
    pointer: at('/classifications/N/systemName'),
    v12: `${FEATURES_12}/REFERENCE_FEATURE_SYSTEM_NAME`,
    v2005: `${FEATURES_2005}/REFERENCE_FEATURE_SYSTEM_NAME`,
  },
  {
    pointer: at('/classifications/N/groupId'),
    v12: `${FEATURES_12}/REFERENCE_FEATURE_GROUP_ID`,
    v2005: `${FEATURES_2005}/REFERENCE_FEATURE_GROUP_ID`,
    hint: 'give the group of the system REFERENCE_FEATURE_SYSTEM_NAME names (REFERENCE_FEATURE_GROUP_ID or _NAME)',
  },
  {
    pointer: at('/classifications/N/features/N/name'),
    v12: `${FEATURES_12}/FEATURE/FNAME`,
    v2005: `${FEATURES_2005}/FEATURE/FNAME`,
  },
  {
    pointer: at('/classifications/N/features/N/values(/.*)?'),
    v12: `${FEATURES_12}/FEATURE/FVALUE`,
    v2005: `${FEATURES_2005}/FEATURE/FVALUE`,
  },
  {
    pointer: at('/classifications/N/features/N/unit'),
    v12: `${FEATURES_12}/FEATURE/FUNIT`,
    v2005: `${FEATURES_2005}/FEATURE/FUNIT`,
  },
  {
    pointer: at('/classifications/N/features/N/order'),
    v12: `${FEATURES_12}/FEATURE/FORDER`,
    v2005: `${FEATURES_2005}/FEATURE/FORDER`,
  },
  { pointer: at('/classifications/N/features.*'), v12: `${FEATURES_12}/FEATURE`, v2005: `${FEATURES_2005}/FEATURE` },
  { pointer: at('/classifications.*'), v12: FEATURES_12, v2005: FEATURES_2005 },
  { pointer: at('/images/N/href'), v12: 'MIME_INFO/MIME/MIME_SOURCE', v2005: 'MIME_INFO/MIME/MIME_SOURCE' },
  { pointer: at('/images/N/mimeType'), v12: 'MIME_INFO/MIME/MIME_TYPE', v2005: 'MIME_INFO/MIME/MIME_TYPE' },
  { pointer: at('/images/N/purpose'), v12: 'MIME_INFO/MIME/MIME_PURPOSE', v2005: 'MIME_INFO/MIME/MIME_PURPOSE' },
  { pointer: at('/images/N/descriptions.*'), v12: 'MIME_INFO/MIME/MIME_DESCR', v2005: 'MIME_INFO/MIME/MIME_DESCR' },
  { pointer: at('/images.*'), v12: 'MIME_INFO/MIME', v2005: 'MIME_INFO/MIME' },
  {
    pointer: at('/references/N/supplierArticleId'),
    v12: 'ARTICLE_REFERENCE/ART_ID_TO',
    v2005: 'PRODUCT_REFERENCE/PROD_ID_TO',
    hint: 'give the SUPPLIER_AID of an article of the same catalog',
  },
  { pointer: at('/references.*'), v12: 'ARTICLE_REFERENCE', v2005: 'PRODUCT_REFERENCE' },
  {
    pointer: at('/customsTariffNumber'),
    v12: 'PRODUCT_LOGISTIC_DETAILS/CUSTOMS_TARIFF_NUMBER/CUSTOMS_NUMBER',
    v2005: 'PRODUCT_LOGISTIC_DETAILS/CUSTOMS_TARIFF_NUMBER/CUSTOMS_NUMBER',
  },
  {
    pointer: at('/countryOfOrigin'),
    v12: 'PRODUCT_LOGISTIC_DETAILS/COUNTRY_OF_ORIGIN',
    v2005: 'PRODUCT_LOGISTIC_DETAILS/COUNTRY_OF_ORIGIN',
  },
  {
    pointer: at('/weight(/.*)?'),
    v12: 'PRODUCT_LOGISTIC_DETAILS/PRODUCT_DIMENSIONS/WEIGHT',
    v2005: 'PRODUCT_LOGISTIC_DETAILS/PRODUCT_DIMENSIONS/WEIGHT',
    hint: 'give the weight in kg with a dot as decimal separator',
  },
];

/** The element path a violation's JSON pointer comes from, or undefined when no element is known for it. */
export function bmecatSourceOf(pointer: string, item: string): { path: string; hint?: string } | undefined {
  const source = SOURCES.find((s) => s.pointer.test(pointer));
  if (!source) return undefined;
  const path = item === 'PRODUCT' ? source.v2005 : source.v12;
  return source.hint === undefined ? { path } : { path, hint: source.hint };
}

/**
 * A violation of a BMEcat record in BMEcat's words: its path the element the supplier wrote
 * (`ARTICLE_ORDER_DETAILS/ORDER_UNIT`, `PRODUCT_ORDER_DETAILS/ORDER_UNIT` for a 2005 `PRODUCT`),
 * a value never given said to be missing, and a hint on what the element must hold. A path that
 * names elements already (a record over a limit: `/ARTICLE/...`) loses only its leading slash; a
 * pointer with no known element, and `''` (the whole item), stay as they are.
 */
export function bmecatViolation(violation: RecordViolation, item: string): RecordViolation {
  const { path, message } = violation;
  if (path === '') return violation;
  if (path.startsWith(`/${item}/`) || path === `/${item}`) return { path: path.slice(1), message };
  const source = bmecatSourceOf(path, item);
  if (!source) return violation;
  const missing =
    /^must be a non-empty (string|array)$/.test(message) ||
    /\bundefined\b/.test(message) ||
    message === 'must be an object';
  const said = missing ? 'is missing or empty' : message;
  // A message that says how to fix it already (an update naming an article the shop lacks) keeps its own words.
  const hint = missing || !message.includes(': ') ? source.hint : undefined;
  return { path: source.path, message: hint === undefined ? said : `${said}: ${hint}` };
}
