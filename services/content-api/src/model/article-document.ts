import type { Article, ArticleClassification, ArticleImage, LanguageCode, StringWithLanguage } from './article.js';
import type { Decimal } from './decimal.js';

/** Version of the positional layout, first element of every document. */
export const ARTICLE_DOCUMENT_FORMAT = 1;

type Texts = [LanguageCode, string][];
/** A decimal in a document: `[value, decimalDigits]`. */
export type Dec = [number, number];
/** A member added to the layout later: `undefined` in documents written before it, `null` when absent. */
type Opt<T> = T | null | undefined;

/**
 * Encodes an article as a positional JSON array (members in a fixed order, decimals as
 * `[value, digits]`, absent optionals as `null`): about half the size of the article's JSON and
 * quicker to write, which is most of the import's cost. `id` and `shopId` are not stored (the
 * store keeps the id; the shop is its prefix). Members outside `Article` are dropped. Members
 * added later go at the end of their array, so documents written before them still decode.
 */
export function encodeArticleDocument(a: Article): string {
  const od = a.orderDetails;
  return JSON.stringify([
    ARTICLE_DOCUMENT_FORMAT,
    a.supplierArticleId,
    a.description,
    texts(a.descriptions),
    texts(a.descriptionsLong),
    a.manufacturerName ?? null,
    a.manufacturerArticleId ?? null,
    a.internationalArticleIds.map((i) => [i.type, i.value]),
    a.keywords.map((k) => [k.lang, k.values]),
    a.currency,
    dec(a.tax),
    blockPricesOf(a.blockPrices),
    specialTaxesOf(a.specialTaxes),
    [
      od.orderUnit,
      od.contentUnit ?? null,
      od.numberOfContentUnitsPerOrderUnit ? dec(od.numberOfContentUnitsPerOrderUnit) : null,
      od.minimumOrderQuantity,
      od.orderQuantityInterval,
      od.priceQuantity,
      od.deliveryTime ?? null,
      od.providerOrderUnit ?? null,
      od.providerContentUnit ?? null,
    ],
    a.classifications.map((c) => {
      // The group's name and second id, and the feature's id, were added later: left out when absent.
      const features = c.features.map((f) =>
        f.featureId === undefined
          ? [f.name, f.values, f.unit ?? null, f.lang ?? null, f.order ?? null]
          : [f.name, f.values, f.unit ?? null, f.lang ?? null, f.order ?? null, f.featureId],
      );
      if (c.groupId2 !== undefined) return [c.systemName, c.groupId, features, c.groupName ?? null, c.groupId2];
      if (c.groupName !== undefined) return [c.systemName, c.groupId, features, c.groupName];
      return [c.systemName, c.groupId, features];
    }),
    a.images.map((m) =>
      m.alts || m.hrefs
        ? [
            m.mimeType,
            m.href,
            m.purpose,
            texts(m.descriptions),
            m.alts ? texts(m.alts) : null,
            m.hrefs ? texts(m.hrefs) : null,
          ]
        : [m.mimeType, m.href, m.purpose, texts(m.descriptions)],
    ),
    a.references.map((r) => [r.articleReferenceType, r.refId]),
    // Members added later, at the end; left out when absent (most articles have none).
    ...trimNulls([
      a.supplierAlternativeArticleId ?? null,
      a.buyerArticleIds ? a.buyerArticleIds.map((b) => [b.type, b.value]) : null,
      a.statuses ? a.statuses.map((b) => [b.type, b.value]) : null,
      priceConditionsOf(a.priceConditions),
      a.remarks ? texts(a.remarks) : null,
      a.specialTreatmentClasses ? a.specialTreatmentClasses.map((b) => [b.type, b.value]) : null,
      a.customsTariffNumber ?? null,
      a.countryOfOrigin ?? null,
      a.weight ? dec(a.weight) : null,
    ]),
  ]);
}

/** `items` without its trailing nulls. */
function trimNulls(items: unknown[]): unknown[] {
  let n = items.length;
  while (n > 0 && items[n - 1] === null) n -= 1;
  return items.slice(0, n);
}

/** The order details as a document stores them. */
type OrderDetailsRow = [
  string,
  string | null,
  Dec | null,
  number,
  number,
  number,
  number | null,
  Opt<string>,
  Opt<string>,
];

/** A stored document of layout `ARTICLE_DOCUMENT_FORMAT`, as `encodeArticleDocument` writes it. */
type StoredDocument = [
  number,
  string,
  string,
  Texts,
  Texts,
  string | null,
  string | null,
  [string, string][],
  [LanguageCode, string[]][],
  string,
  Dec,
  [number, number, number][],
  [number, number, string][],
  OrderDetailsRow,
  [
    string,
    string,
    [string, string[], string | null, LanguageCode | null, number | null, Opt<string>?][],
    Opt<string>?,
    Opt<string>?,
  ][],
  [string, string, string, Texts, Opt<Texts>?, Opt<Texts>?][],
  [string, string][],
  Opt<string>,
  Opt<[string, string][]>,
  Opt<[string, string][]>,
  Opt<[string | null, string | null, string[], (string | null)?, (1 | null)?]>,
  Opt<Texts>,
  Opt<[string, string][]>,
  Opt<string>,
  Opt<string>,
  Opt<Dec>,
];

/**
 * Decodes what `encodeArticleDocument` wrote; `id` is the stored article id, `<shopId>:...`.
 *
 * @throws RangeError for another layout version.
 */
export function decodeArticleDocument(text: string, id: string): Article {
  const d = JSON.parse(text) as StoredDocument;
  if (d[0] !== ARTICLE_DOCUMENT_FORMAT)
    throw new RangeError(`article document of layout ${String(d[0])}, expected ${ARTICLE_DOCUMENT_FORMAT}`);
  const [
    ,
    supplierArticleId,
    description,
    descriptions,
    descriptionsLong,
    manufacturerName,
    manufacturerArticleId,
    ids,
    keywords,
    currency,
    tax,
    blockPrices,
    specialTaxes,
    od,
    classifications,
    images,
    references,
    supplierAlternativeArticleId,
    buyerArticleIds,
    statuses,
    priceConditions,
    remarks,
    specialTreatmentClasses,
    customsTariffNumber,
    countryOfOrigin,
    weight,
  ] = d;
  const [
    orderUnit,
    contentUnit,
    perOrderUnit,
    minimumOrderQuantity,
    orderQuantityInterval,
    priceQuantity,
    deliveryTime,
    providerOrderUnit,
    providerContentUnit,
  ] = od;
  return {
    id,
    shopId: id.slice(0, id.indexOf(':')),
    supplierArticleId,
    description,
    descriptions: strings(descriptions),
    descriptionsLong: strings(descriptionsLong),
    ...(manufacturerName !== null ? { manufacturerName } : {}),
    ...(manufacturerArticleId !== null ? { manufacturerArticleId } : {}),
    internationalArticleIds: ids.map(([type, value]) => ({ type, value })),
    keywords: keywords.map(([lang, values]) => ({ lang, values })),
    currency,
    tax: decimal(tax),
    blockPrices: blockPrices.map(([lowerBound, value, decimalDigits]) => ({
      lowerBound,
      amount: { value, decimalDigits },
    })),
    specialTaxes: specialTaxes.map(([value, decimalDigits, taxType]) => ({
      amount: { value, decimalDigits },
      taxType,
    })),
    orderDetails: {
      orderUnit,
      ...(contentUnit !== null ? { contentUnit } : {}),
      ...(perOrderUnit !== null ? { numberOfContentUnitsPerOrderUnit: decimal(perOrderUnit) } : {}),
      minimumOrderQuantity,
      orderQuantityInterval,
      priceQuantity,
      ...(deliveryTime !== null ? { deliveryTime } : {}),
      ...(providerOrderUnit != null ? { providerOrderUnit } : {}),
      ...(providerContentUnit != null ? { providerContentUnit } : {}),
    },
    classifications: classifications.map(
      ([systemName, groupId, features, groupName, groupId2]): ArticleClassification => ({
        systemName,
        groupId,
        ...(groupName != null ? { groupName } : {}),
        ...(groupId2 != null ? { groupId2 } : {}),
        features: features.map(([name, values, unit, lang, order, featureId]) => ({
          name,
          ...(featureId != null ? { featureId } : {}),
          values,
          ...(unit !== null ? { unit } : {}),
          ...(lang !== null ? { lang } : {}),
          ...(order !== null ? { order } : {}),
        })),
      }),
    ),
    images: images.map(([mimeType, href, purpose, descriptions, alts, hrefs]): ArticleImage => ({
      mimeType,
      href,
      purpose,
      descriptions: strings(descriptions),
      ...(alts ? { alts: strings(alts) } : {}),
      ...(hrefs ? { hrefs: strings(hrefs) } : {}),
    })),
    references: references.map(([articleReferenceType, refId]) => ({ articleReferenceType, refId })),
    ...(supplierAlternativeArticleId != null ? { supplierAlternativeArticleId } : {}),
    ...(buyerArticleIds ? { buyerArticleIds: buyerArticleIds.map(([type, value]) => ({ type, value })) } : {}),
    ...(statuses ? { statuses: statuses.map(([type, value]) => ({ type, value })) } : {}),
    ...(priceConditions
      ? {
          priceConditions: {
            ...(priceConditions[0] !== null ? { validFrom: priceConditions[0] } : {}),
            ...(priceConditions[1] !== null ? { validUntil: priceConditions[1] } : {}),
            territories: priceConditions[2],
            ...(priceConditions[3] != null ? { priceType: priceConditions[3] } : {}),
            ...(priceConditions[4] === 1 ? { taxFromShop: true } : {}),
          },
        }
      : {}),
    ...(remarks ? { remarks: strings(remarks) } : {}),
    ...(specialTreatmentClasses
      ? { specialTreatmentClasses: specialTreatmentClasses.map(([type, value]) => ({ type, value })) }
      : {}),
    ...(customsTariffNumber != null ? { customsTariffNumber } : {}),
    ...(countryOfOrigin != null ? { countryOfOrigin } : {}),
    ...(weight != null ? { weight: decimal(weight) } : {}),
  };
}

/** `blockPrices` as a document stores them. */
export function blockPricesOf(prices: Article['blockPrices']): [number, number, number][] {
  return prices.map((b) => [b.lowerBound, b.amount.value, b.amount.decimalDigits ?? 0]);
}

/** `specialTaxes` as a document stores them. */
export function specialTaxesOf(taxes: Article['specialTaxes']): [number, number, string][] {
  return taxes.map((t) => [t.amount.value, t.amount.decimalDigits ?? 0, t.taxType]);
}

/** `priceConditions` as a document stores them (null when absent). */
export function priceConditionsOf(
  c: Article['priceConditions'],
): [string | null, string | null, readonly string[], (string | null)?, (1 | null)?] | null {
  if (!c) return null;
  // The price type and the default tax mark were added later: left out when absent.
  if (c.taxFromShop) return [c.validFrom ?? null, c.validUntil ?? null, c.territories, c.priceType ?? null, 1];
  if (c.priceType !== undefined) return [c.validFrom ?? null, c.validUntil ?? null, c.territories, c.priceType];
  return [c.validFrom ?? null, c.validUntil ?? null, c.territories];
}

function texts(items: readonly StringWithLanguage[]): Texts {
  return items.map((s) => [s.lang, s.value]);
}

function strings(items: Texts): StringWithLanguage[] {
  return items.map(([lang, value]) => ({ lang, value }));
}

/** A decimal as a document stores it. */
export function dec(d: Decimal): Dec {
  return [d.value, d.decimalDigits ?? 0];
}

function decimal([value, decimalDigits]: Dec): Decimal {
  return { value, decimalDigits };
}

/** Reads a stored document: the positional layout, or the article JSON older rows hold. */
export function parseStoredArticle(text: string, id: string): Article {
  return text.startsWith('[') ? decodeArticleDocument(text, id) : (JSON.parse(text) as Article);
}
