import type { Article, BusinessShop, LanguageCode, Money } from '../model/article.js';
import {
  pricePerMinimumOrderQuantity,
  pricePerMinimumOrderQuantityInclSpecialTaxes,
  specialTaxPerUnit,
} from '../model/article-prices.js';
import { addDecimals, decimal, scaleDecimal, SCALED_DIGITS, toScaled, type Decimal } from '../model/decimal.js';
import { highlightText } from '../search/highlight.js';
import type { MatchedWords } from '../search/search-query.js';
import { articlePath, shopPath, type LinkBuilder } from './links.js';

/** The wire Price. */
function price(priceType: 'NET_CUSTOMER' | 'NET_INCL_SPECIAL_TAX', amount: Decimal, article: Article): WirePrice {
  return { priceType, amount: dec(amount), currency: article.currency, tax: dec(article.tax) };
}

/*
 * The reply objects below are built member by member in the spec's order, optional members
 * assigned only when present, instead of spreading small objects: a page of hits is built on
 * every search, and spreads cost most of it (issue 30). `JSON.stringify` writes members in the
 * order they were added, so the bytes are those of the spread form.
 */

interface WirePrice {
  readonly priceType: 'NET_CUSTOMER' | 'NET_INCL_SPECIAL_TAX';
  readonly amount: Decimal;
  readonly currency: string;
  readonly tax: Decimal;
}

interface WireFeature {
  lang?: LanguageCode;
  name: string;
  values: string[];
  unit?: string;
  order?: number;
  featureId?: string;
}

interface WireReference {
  systemName: string;
  groupId: string;
  groupName?: string;
  groupId2?: string;
}

interface WireMime {
  mimeType: string;
  href: string;
  description?: string;
  purpose: string;
  alt?: string;
}

interface WireText {
  readonly lang: LanguageCode;
  readonly value: string;
}

/** A search hit's article (`presentHitArticle`). */
export interface HitArticleReply {
  id: string;
  description: string;
  descriptions: WireText[];
  manufacturerArticleId?: string;
  manufacturerName?: string;
  supplierArticleId: string;
  minimumOrderQuantity: number;
  orderQuantityInterval: number;
  pricePerMinimumOrderQuantity: WirePrice;
  pricePerMinimumOrderQuantityInclSpecialTaxes?: WirePrice;
  orderUnit: string;
  shippingCostsEstimated: Money;
  firstMimeImage?: WireMime;
  firstMimeImages?: ReturnType<typeof mimeWithLanguage>;
  articleFeatures: ReturnType<typeof articleFeatures>;
  keywords: string[];
  keywordsGroupedByLanguage: { lang: LanguageCode; values: string[] }[];
}

/** `items` as the wire's `{lang, value}` texts. */
function wireTexts(items: readonly WireText[]): WireText[] {
  const out: WireText[] = new Array<WireText>(items.length);
  for (let n = 0; n < items.length; n += 1) {
    const item = items[n] as WireText;
    out[n] = { lang: item.lang, value: item.value };
  }
  return out;
}

/** Decimals always with both members, so clients need not apply the default. */
function dec(d: Decimal): Decimal {
  return { value: d.value, decimalDigits: d.decimalDigits };
}

/** The wire ArticleFeatures, with the extensions `featureId`, `groupName` and `groupId2` when the catalog gave them. */
function articleFeatures(article: Article): { features: WireFeature[]; reference: WireReference }[] {
  return article.classifications.map((c) => {
    const features = c.features.map((f) => {
      const feature = (
        f.lang ? { lang: f.lang, name: f.name, values: f.values.slice() } : { name: f.name, values: f.values.slice() }
      ) as WireFeature;
      if (f.unit) feature.unit = f.unit;
      if (f.order !== undefined) feature.order = f.order;
      if (f.featureId !== undefined) feature.featureId = f.featureId;
      return feature;
    });
    const reference: WireReference = { systemName: c.systemName, groupId: c.groupId };
    if (c.groupName !== undefined) reference.groupName = c.groupName;
    if (c.groupId2 !== undefined) reference.groupId2 = c.groupId2;
    return { features, reference };
  });
}

/** The keywords of the hit's and the detail's wire shape: all of them once, and by language. */
function keywords(article: Article): Pick<HitArticleReply, 'keywords' | 'keywordsGroupedByLanguage'> {
  const all = new Set<string>();
  for (const k of article.keywords) for (const value of k.values) all.add(value);
  return {
    keywords: Array.from(all),
    keywordsGroupedByLanguage: article.keywords.map((k) => ({ lang: k.lang, values: k.values.slice() })),
  };
}

/** The wire Mime: the first description and the first alternative text (`MIME_ALT`), each when given. */
function mime(image: Article['images'][number]): WireMime {
  const description = image.descriptions[0]?.value;
  const alt = image.alts?.[0]?.value;
  const wire = (
    description
      ? { mimeType: image.mimeType, href: image.href, description, purpose: image.purpose }
      : { mimeType: image.mimeType, href: image.href, purpose: image.purpose }
  ) as WireMime;
  if (alt) wire.alt = alt;
  return wire;
}

/**
 * The wire MimeWithLanguage: the source per language when the catalog gave one per language,
 * else the one source under every language of its texts (the article's first language without any).
 */
function mimeWithLanguage(image: Article['images'][number], article: Article) {
  const texts = image.descriptions.length > 0 ? image.descriptions : (image.alts ?? []);
  const languages = texts.length > 0 ? texts.map((d) => d.lang) : [article.descriptions[0]?.lang ?? 'en'];
  return {
    mimeType: image.mimeType,
    href: image.hrefs ? wireTexts(image.hrefs) : languages.map((lang) => ({ lang, value: image.href })),
    description: wireTexts(image.descriptions),
    purpose: image.purpose,
    alt: image.alts ? wireTexts(image.alts) : [],
  };
}

/** The first media file that is an image: `firstMimeImage` is never a data sheet. */
function firstImage(article: Article) {
  return article.images.find((m) => m.mimeType.startsWith('image/'));
}

/**
 * What a block price adds to the Price (extension members): when and where it applies, when the
 * catalog says, and the BMEcat price type it was read from.
 */
function priceConditions(article: Article): {
  validFrom?: string;
  validUntil?: string;
  territories?: string[];
  bmecatPriceType?: string;
} {
  const c = article.priceConditions;
  if (!c) return {};
  const when = c.validFrom !== undefined || c.validUntil !== undefined || c.territories.length > 0;
  return {
    ...(c.validFrom !== undefined ? { validFrom: c.validFrom } : {}),
    ...(c.validUntil !== undefined ? { validUntil: c.validUntil } : {}),
    ...(when ? { territories: [...c.territories] } : {}),
    ...(c.priceType !== undefined ? { bmecatPriceType: c.priceType } : {}),
  };
}

/** The fields a search hit's article and the article detail both open with, in the spec's order. */
function articleHead(
  article: Article,
): Pick<HitArticleReply, 'id' | 'description' | 'descriptions' | 'manufacturerArticleId' | 'manufacturerName'> {
  const head: Pick<
    HitArticleReply,
    'id' | 'description' | 'descriptions' | 'manufacturerArticleId' | 'manufacturerName'
  > = { id: article.id, description: article.description, descriptions: wireTexts(article.descriptions) };
  if (article.manufacturerArticleId !== undefined) head.manufacturerArticleId = article.manufacturerArticleId;
  if (article.manufacturerName !== undefined) head.manufacturerName = article.manufacturerName;
  return head;
}

/**
 * Estimated shipping costs of an order of only this article at its minimum order quantity:
 * free from the shop's threshold, else the standard rate; zero when the shop is unknown.
 */
export function estimateShippingCosts(article: Article, shop: BusinessShop | undefined): Money {
  return shippingFor(article, pricePerMinimumOrderQuantity(article), shop);
}

/** `estimateShippingCosts` of an article whose price of the minimum order quantity is `goods`. */
function shippingFor(article: Article, goods: Decimal, shop: BusinessShop | undefined): Money {
  if (!shop) return { amount: decimal(0), currency: article.currency };
  const free = shop.shippingCosts.freeShippingFrom;
  if (free && atLeast(goods, free.amount))
    return { amount: decimal(0), currency: shop.shippingCosts.standard.currency };
  return { amount: dec(shop.shippingCosts.standard.amount), currency: shop.shippingCosts.standard.currency };
}

/** `a >= b`, exact: in floating point while both scale to safe integers, else with `toScaled`. */
function atLeast(a: Decimal, b: Decimal): boolean {
  const x = quickScaled(a);
  const y = quickScaled(b);
  return x !== undefined && y !== undefined ? x >= y : toScaled(a) >= toScaled(b);
}

/** `toScaled(d)` when it is a safe integer reached without rounding; else undefined. */
function quickScaled(d: Decimal): number | undefined {
  const shift = SCALED_DIGITS - d.decimalDigits;
  if (shift < 0 || shift > 15) return undefined;
  const scaled = d.value * 10 ** shift;
  return Number.isSafeInteger(scaled) ? scaled : undefined;
}

/** The article of a search hit: every field of the spec's table, in its order. */
export function presentHitArticle(article: Article, shop: BusinessShop | undefined): HitArticleReply {
  const image = firstImage(article);
  const od = article.orderDetails;
  const goods = pricePerMinimumOrderQuantity(article);
  const estimate = shippingFor(article, goods, shop);
  const hit = articleHead(article) as HitArticleReply;
  hit.supplierArticleId = article.supplierArticleId;
  hit.minimumOrderQuantity = od.minimumOrderQuantity;
  hit.orderQuantityInterval = od.orderQuantityInterval;
  hit.pricePerMinimumOrderQuantity = price('NET_CUSTOMER', goods, article);
  if (article.specialTaxes.length > 0)
    hit.pricePerMinimumOrderQuantityInclSpecialTaxes = price(
      'NET_INCL_SPECIAL_TAX',
      pricePerMinimumOrderQuantityInclSpecialTaxes(article),
      article,
    );
  hit.orderUnit = od.orderUnit;
  hit.shippingCostsEstimated = { amount: dec(estimate.amount), currency: estimate.currency };
  if (image) {
    hit.firstMimeImage = mime(image);
    hit.firstMimeImages = mimeWithLanguage(image, article);
  }
  hit.articleFeatures = articleFeatures(article);
  const { keywords: all, keywordsGroupedByLanguage } = keywords(article);
  hit.keywords = all;
  hit.keywordsGroupedByLanguage = keywordsGroupedByLanguage;
  return hit;
}

/** A search hit: the article, its score and links `details` and the shop (`bshop` and `business-shop`). */
export function presentHit(article: Article, score: number, shop: BusinessShop | undefined, links: LinkBuilder) {
  return {
    article: presentHitArticle(article, shop),
    score,
    _schema: {
      links: [
        links.articleLink('details', article.id),
        ...links.links(['bshop', 'business-shop'], shopPath(article.shopId)),
      ],
    },
  };
}

/**
 * A hit's `highlights` (`highlight=true`): the matched words of its `description` (`title`) and of
 * the first other of its `descriptions` that holds one (`description`, with its `lang`), each only
 * when it holds a matched word; `{}` without words.
 */
export function presentHighlights(article: Article, matched: MatchedWords | undefined) {
  if (!matched) return {};
  const title = highlightText(article.description, matched);
  let description: { lang: string; spans: [number, number][]; snippet: string } | undefined;
  for (const d of article.descriptions) {
    if (d.value === article.description) continue;
    const found = highlightText(d.value, matched);
    if (found) {
      description = { lang: d.lang, spans: found.spans.map(([a, b]) => [a, b]), snippet: found.snippet };
      break;
    }
  }
  return {
    ...(title
      ? { title: { spans: title.spans.map(([a, b]): [number, number] => [a, b]), snippet: title.snippet } }
      : {}),
    ...(description ? { description } : {}),
  };
}

/** The article detail resource with every field of the spec's table. */
export function presentArticleDetail(article: Article, links: LinkBuilder, timeMs: number) {
  const od = article.orderDetails;
  const taxPerPriceQuantity = scaleDecimal(specialTaxPerUnit(article), od.priceQuantity);
  const conditions = priceConditions(article);
  return {
    ...articleHead(article),
    mimeInfo: article.images.map(mime),
    mimeInfos: article.images.map((m) => mimeWithLanguage(m, article)),
    articleFeatures: articleFeatures(article),
    // Extension: the detail carries the keywords as a search hit does.
    ...keywords(article),
    details: {
      ...(article.descriptionsLong[0] ? { descriptionLong: article.descriptionsLong[0].value } : {}),
      descriptionsLong: article.descriptionsLong.map((d) => ({ lang: d.lang, value: d.value })),
      supplierArticleId: article.supplierArticleId,
      internationalArticleId: article.internationalArticleIds.map((i) => ({ type: i.type, value: i.value })),
      ...(article.supplierAlternativeArticleId !== undefined
        ? { supplierAlternativeArticleId: article.supplierAlternativeArticleId }
        : {}),
      buyerArticleId: (article.buyerArticleIds ?? []).map((i) => ({ type: i.type, value: i.value })),
      articleStatus: (article.statuses ?? []).map((i) => ({ type: i.type, value: i.value })),
      remarks: (article.remarks ?? []).map((d) => ({ lang: d.lang, value: d.value })),
      specialTreatmentClass: (article.specialTreatmentClasses ?? []).map((i) => ({ type: i.type, value: i.value })),
      ...(article.customsTariffNumber !== undefined ? { customsTariffNumber: article.customsTariffNumber } : {}),
      ...(article.countryOfOrigin !== undefined ? { countryOfOrigin: article.countryOfOrigin } : {}),
      ...(article.weight !== undefined ? { weight: { quantity: dec(article.weight), unit: 'KGM' } } : {}),
    },
    blockPricing: article.blockPrices.map((b) => ({
      ...price('NET_CUSTOMER', b.amount, article),
      lowerBound: b.lowerBound,
      ...conditions,
    })),
    blockPricingInclSpecialTax: article.blockPrices.map((b) => ({
      ...price('NET_INCL_SPECIAL_TAX', addDecimals(b.amount, taxPerPriceQuantity), article),
      lowerBound: b.lowerBound,
      ...conditions,
    })),
    specialTaxes: article.specialTaxes.map((t) => ({
      amount: dec(t.amount),
      currency: article.currency,
      taxType: t.taxType,
    })),
    orderDetails: {
      orderUnit: od.orderUnit,
      ...(od.contentUnit !== undefined ? { contentUnit: od.contentUnit } : {}),
      ...(od.numberOfContentUnitsPerOrderUnit
        ? { numberOfContentUnitsPerOrderUnit: dec(od.numberOfContentUnitsPerOrderUnit) }
        : {}),
      minimumOrderQuantity: od.minimumOrderQuantity,
      orderQuantityInterval: od.orderQuantityInterval,
      priceQuantity: od.priceQuantity,
      ...(od.deliveryTime !== undefined ? { deliveryTime: od.deliveryTime } : {}),
      unitInfo: {
        orderUnit: { unit: od.orderUnit, providerUnit: od.providerOrderUnit ?? od.orderUnit },
        ...(od.contentUnit !== undefined
          ? { contentUnit: { unit: od.contentUnit, providerUnit: od.providerContentUnit ?? od.contentUnit } }
          : {}),
      },
    },
    references: article.references.map((r) => ({ articleReferenceType: r.articleReferenceType, refId: r.refId })),
    _status: { timeMs },
    _schema: {
      links: [
        links.link('self', articlePath(article.id)),
        links.link('business-shop', shopPath(article.shopId)),
        links.link('return-policy', shopPath(article.shopId, 'return-policy')),
        links.link('shipping-costs', shopPath(article.shopId, 'shipping-costs')),
        links.link('minimum-order-value', shopPath(article.shopId, 'minimum-order-value')),
      ],
    },
  };
}

/** A search hit as the client receives it. */
export type HitReply = ReturnType<typeof presentHit>;

/** The article detail resource as the client receives it. */
export type ArticleDetailReply = ReturnType<typeof presentArticleDetail>;
