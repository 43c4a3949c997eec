import type { LanguageCode } from '../model/article.js';
import {
  addLabelled,
  addTyped,
  decimalOf,
  integer,
  language,
  once,
  repeated,
  text,
  type ItemNotes,
  type ItemWarning,
  type XmlNode,
} from './bmecat-node.js';
import { offersOf } from './bmecat-prices.js';
import { classificationsOf } from './bmecat-features.js';
import type { FeatureDefinitions } from './bmecat-feature-definitions.js';
import { mediaOf } from './bmecat-media.js';

/** One catalog item read from BMEcat: its start line and our JSON record shape, or why it was refused. */
export type BmecatItem =
  | {
      readonly line: number;
      readonly record: Record<string, unknown>;
      readonly mode?: string;
      /** What the record keeps in another form than the file gave it, or does not keep (`ItemWarning`). */
      readonly warnings?: readonly ItemWarning[];
    }
  | { readonly line: number; readonly error: string; readonly path?: string };

/**
 * What the header gives every item: the default language of texts, the currency of prices without
 * one and the `MIME_ROOT` that relative media sources are relative to.
 */
export interface BmecatDefaults {
  readonly language: LanguageCode;
  readonly currency: string | undefined;
  readonly mimeRoot?: string;
  /** Feature templates, values and groups the catalog defines before its items. */
  readonly definitions?: FeatureDefinitions;
}

// Each element's children are looked at once, in one switch: this runs for every item of files
// with millions of them. Where BMEcat 1.2 and 2005 name an element differently, the 1.2 name
// wins when both are present, and lists take the 1.2 elements first.

/** The children of an item that the record uses (a single-valued one given twice: the first, noted). */
function itemParts(item: XmlNode, notes: ItemNotes) {
  const path = item.name;
  let aid: XmlNode | undefined;
  let pid: XmlNode | undefined;
  let articleDetails: XmlNode | undefined;
  let productDetails: XmlNode | undefined;
  let articleOrder: XmlNode | undefined;
  let productOrder: XmlNode | undefined;
  const articlePrices: XmlNode[] = [];
  const productPrices: XmlNode[] = [];
  const features: XmlNode[] = [];
  const productFeatures: XmlNode[] = [];
  let mime: XmlNode | undefined;
  let logistics: XmlNode | undefined;
  const references: XmlNode[] = [];
  const productReferences: XmlNode[] = [];
  for (const c of item.children) {
    switch (c.name) {
      case 'SUPPLIER_AID':
        aid = once(aid, c, path, notes);
        break;
      case 'SUPPLIER_PID':
        pid = once(pid, c, path, notes);
        break;
      case 'ARTICLE_DETAILS':
        articleDetails = once(articleDetails, c, path, notes);
        break;
      case 'PRODUCT_DETAILS':
        productDetails = once(productDetails, c, path, notes);
        break;
      case 'ARTICLE_ORDER_DETAILS':
        articleOrder = once(articleOrder, c, path, notes);
        break;
      case 'PRODUCT_ORDER_DETAILS':
        productOrder = once(productOrder, c, path, notes);
        break;
      case 'ARTICLE_PRICE_DETAILS':
        articlePrices.push(c);
        break;
      case 'PRODUCT_PRICE_DETAILS':
        productPrices.push(c);
        break;
      case 'ARTICLE_FEATURES':
        features.push(c);
        break;
      case 'PRODUCT_FEATURES':
        productFeatures.push(c);
        break;
      case 'MIME_INFO':
        mime = once(mime, c, path, notes);
        break;
      case 'PRODUCT_LOGISTIC_DETAILS':
        logistics = once(logistics, c, path, notes);
        break;
      case 'ARTICLE_REFERENCE':
        references.push(c);
        break;
      case 'PRODUCT_REFERENCE':
        productReferences.push(c);
        break;
    }
  }
  return {
    supplierId: aid ?? pid,
    details: articleDetails ?? productDetails,
    order: articleOrder ?? productOrder,
    priceDetails: articlePrices.concat(productPrices),
    features: features.concat(productFeatures),
    mime,
    logistics,
    references: references.concat(productReferences),
  };
}

/**
 * Adds a description per language to `out`: another in the same language is noted and not read.
 * A function of the module, not a closure made for every item: run from the sources (tsx, as the
 * benchmarks and workers started from them are), each named closure is also named as it is made.
 */
function describe(
  out: { lang: LanguageCode; value: string }[],
  c: XmlNode,
  lang: LanguageCode,
  path: string,
  notes: ItemNotes,
): void {
  if (c.text.trim() === '') return;
  if (out.some((d) => d.lang === language(c.attributes.lang, lang))) repeated(c, path, notes);
  else addLabelled(out, c, lang);
}

/** The record fields that `ARTICLE_DETAILS` / `PRODUCT_DETAILS` give. */
function detailsOf(details: XmlNode | undefined, lang: LanguageCode, notes: ItemNotes) {
  const path = details ? `${notes.item.name}/${details.name}` : '';
  const descriptions: { lang: LanguageCode; value: string }[] = [];
  const descriptionsLong: { lang: LanguageCode; value: string }[] = [];
  const keywords = new Map<LanguageCode, string[]>();
  const internationalIds: { type: string; value: string }[] = [];
  let ean: XmlNode | undefined;
  let manufacturerName: XmlNode | undefined;
  let manufacturerAid: XmlNode | undefined;
  let manufacturerPid: XmlNode | undefined;
  let deliveryTime: XmlNode | undefined;
  let alternativeId: XmlNode | undefined;
  const buyerIds: { type: string; value: string }[] = [];
  const statuses: { type: string; value: string }[] = [];
  const treatments: { type: string; value: string }[] = [];
  const remarks: { lang: LanguageCode; value: string }[] = [];
  for (const c of details?.children ?? []) {
    switch (c.name) {
      case 'DESCRIPTION_SHORT':
        describe(descriptions, c, lang, path, notes);
        break;
      case 'DESCRIPTION_LONG':
        describe(descriptionsLong, c, lang, path, notes);
        break;
      case 'KEYWORD': {
        const value = c.text.trim();
        if (value === '') break;
        const l = language(c.attributes.lang, lang);
        const values = keywords.get(l);
        if (values) values.push(value);
        else keywords.set(l, [value]);
        break;
      }
      case 'EAN':
        ean = once(ean, c, path, notes);
        break;
      case 'INTERNATIONAL_PID':
        internationalIds.push({
          type: c.attributes.type ?? 'gtin',
          value: c.text.trim(),
        });
        break;
      case 'MANUFACTURER_NAME':
        manufacturerName = once(manufacturerName, c, path, notes);
        break;
      case 'MANUFACTURER_AID':
        manufacturerAid = once(manufacturerAid, c, path, notes);
        break;
      case 'MANUFACTURER_PID':
        manufacturerPid = once(manufacturerPid, c, path, notes);
        break;
      case 'DELIVERY_TIME':
        deliveryTime = once(deliveryTime, c, path, notes);
        break;
      case 'SUPPLIER_ALT_AID':
      case 'SUPPLIER_ALT_PID':
        alternativeId ??= c;
        break;
      case 'BUYER_AID':
      case 'BUYER_PID':
        addTyped(buyerIds, c);
        break;
      case 'ARTICLE_STATUS':
      case 'PRODUCT_STATUS':
        addTyped(statuses, c);
        break;
      case 'SPECIAL_TREATMENT_CLASS':
        addTyped(treatments, c);
        break;
      case 'REMARKS':
        addLabelled(remarks, c, lang);
        break;
    }
  }
  const eanText = text(ean);
  if (eanText) internationalIds.unshift({ type: 'gtin', value: eanText });
  return {
    descriptions,
    descriptionsLong,
    keywords: [...keywords].map(([l, values]) => ({ lang: l, values })),
    internationalArticleIds: internationalIds,
    manufacturerName: text(manufacturerName),
    manufacturerArticleId: text(manufacturerAid ?? manufacturerPid),
    deliveryTime,
    supplierAlternativeArticleId: text(alternativeId) || undefined,
    buyerArticleIds: buyerIds,
    statuses,
    specialTreatmentClasses: treatments,
    remarks,
  };
}

/**
 * The customs tariff number, country of origin and weight (`PRODUCT_DIMENSIONS/WEIGHT`, kg) of
 * `PRODUCT_LOGISTIC_DETAILS` (2005), when given.
 */
function addLogistics(record: Record<string, unknown>, logistics: XmlNode): void {
  for (const c of logistics.children) {
    if (c.name === 'COUNTRY_OF_ORIGIN' && c.text.trim() !== '') record.countryOfOrigin ??= c.text.trim();
    else if (c.name === 'PRODUCT_DIMENSIONS') {
      for (const n of c.children)
        // Kept as written when it is no decimal, so the record check refuses it with its path.
        if (n.name === 'WEIGHT' && n.text.trim() !== '') record.weight ??= decimalOf(n.text.trim()) ?? n.text.trim();
    } else if (c.name === 'CUSTOMS_TARIFF_NUMBER')
      for (const n of c.children)
        if (n.name === 'CUSTOMS_NUMBER' && n.text.trim() !== '') record.customsTariffNumber ??= n.text.trim();
  }
}

function orderDetailsOf(
  order: XmlNode | undefined,
  deliveryTime: XmlNode | undefined,
  notes: ItemNotes,
): Record<string, unknown> {
  const path = order ? `${notes.item.name}/${order.name}` : '';
  let orderUnit: XmlNode | undefined;
  let contentUnit: XmlNode | undefined;
  let perOrderUnit: XmlNode | undefined;
  let minimum: XmlNode | undefined;
  let interval: XmlNode | undefined;
  let priceQuantity: XmlNode | undefined;
  for (const c of order?.children ?? []) {
    switch (c.name) {
      case 'ORDER_UNIT':
        orderUnit = once(orderUnit, c, path, notes);
        break;
      case 'CONTENT_UNIT':
        contentUnit = once(contentUnit, c, path, notes);
        break;
      case 'NO_CU_PER_OU':
        perOrderUnit = once(perOrderUnit, c, path, notes);
        break;
      case 'QUANTITY_MIN':
        minimum = once(minimum, c, path, notes);
        break;
      case 'QUANTITY_INTERVAL':
        interval = once(interval, c, path, notes);
        break;
      case 'PRICE_QUANTITY':
        priceQuantity = once(priceQuantity, c, path, notes);
        break;
    }
  }
  const details: Record<string, unknown> = { orderUnit: text(orderUnit) };
  // Members in the order of our record shape, optional ones only when given.
  if (contentUnit) details.contentUnit = text(contentUnit);
  if (perOrderUnit) details.numberOfContentUnitsPerOrderUnit = decimalOf(text(perOrderUnit));
  details.minimumOrderQuantity = integer(text(minimum)) ?? 1;
  details.orderQuantityInterval = integer(text(interval)) ?? 1;
  details.priceQuantity = integer(text(priceQuantity)) ?? 1;
  if (deliveryTime) details.deliveryTime = integer(text(deliveryTime));
  return details;
}

/** The record of one item (`ARTICLE` / `PRODUCT`) read from its subtree, with its start `line`. */
export function toItem(item: XmlNode, line: number, defaults: BmecatDefaults): BmecatItem {
  const lang = defaults.language;
  // The item's `mode` (new, update, delete) is applied with the transaction (`finishCatalogItem`).
  const mode = item.attributes.mode;
  const featureContext = { lang, definitions: defaults.definitions, item, warnings: [] as ItemWarning[] };
  const parts = itemParts(item, featureContext);
  const details = detailsOf(parts.details, lang, featureContext);
  const classifications: Record<string, unknown>[] = [];
  for (const block of parts.features) classificationsOf(block, featureContext, classifications);
  const record: Record<string, unknown> = {
    supplierArticleId: text(parts.supplierId),
    description: (details.descriptions.find((d) => d.lang === lang) ?? details.descriptions[0])?.value,
    descriptions: details.descriptions,
    descriptionsLong: details.descriptionsLong,
    manufacturerName: details.manufacturerName,
    manufacturerArticleId: details.manufacturerArticleId,
    internationalArticleIds: details.internationalArticleIds,
    keywords: details.keywords,
    // Every price ladder of the item; the record check takes one by the shop's terms (`choosePriceOffer`).
    priceOffers: offersOf(parts.priceDetails, defaults.currency),
    specialTaxes: [],
    orderDetails: orderDetailsOf(parts.order, details.deliveryTime, featureContext),
    classifications,
    images: mediaOf(parts.mime, lang, defaults.mimeRoot),
    // By the referenced item's supplier id: the record check makes it an article id of the shop.
    references: parts.references.map((r) => {
      let to: XmlNode | undefined;
      let prodTo: XmlNode | undefined;
      for (const c of r.children) {
        if (c.name === 'ART_ID_TO') to ??= c;
        else if (c.name === 'PROD_ID_TO') prodTo ??= c;
      }
      return {
        articleReferenceType: r.attributes.type ?? 'others',
        supplierArticleId: text(to ?? prodTo) ?? '',
      };
    }),
  };
  // BMEcat extras, only when the item has them.
  if (details.supplierAlternativeArticleId !== undefined)
    record.supplierAlternativeArticleId = details.supplierAlternativeArticleId;
  if (details.buyerArticleIds.length > 0) record.buyerArticleIds = details.buyerArticleIds;
  if (details.statuses.length > 0) record.statuses = details.statuses;
  if (details.remarks.length > 0) record.remarks = details.remarks;
  if (details.specialTreatmentClasses.length > 0) record.specialTreatmentClasses = details.specialTreatmentClasses;
  if (parts.logistics) addLogistics(record, parts.logistics);
  const warnings = featureContext.warnings.length > 0 ? { warnings: featureContext.warnings } : {};
  return mode === undefined ? { line, record, ...warnings } : { line, record, mode, ...warnings };
}
