import type { Article, BusinessShop, Money } from '../model/article.js';
import {
  pricePerMinimumOrderQuantity,
  pricePerMinimumOrderQuantityInclSpecialTaxes,
  specialTaxPerUnit,
} from '../model/article-prices.js';
import { addDecimals, decimal, scaleDecimal, toScaled, type Decimal } from '../model/decimal.js';
import { highlightText } from '../search/highlight.js';
import type { MatchedWords } from '../search/search-query.js';
import { articlePath, shopPath, type LinkBuilder } from './links.js';

/** The wire Price. */
function price(priceType: 'NET_CUSTOMER' | 'NET_INCL_SPECIAL_TAX', amount: Decimal, article: Article) {
  return { priceType, amount: dec(amount), currency: article.currency, tax: dec(article.tax) };
}

/** Decimals always with both members, so clients need not apply the default. */
function dec(d: Decimal): Decimal {
  return { value: d.value, decimalDigits: d.decimalDigits };
}

/** The wire ArticleFeatures, with the extensions `featureId`, `groupName` and `groupId2` when the catalog gave them. */
function articleFeatures(article: Article) {
  return article.classifications.map((c) => ({
    features: c.features.map((f) => ({
      ...(f.lang ? { lang: f.lang } : {}),
      name: f.name,
      values: [...f.values],
      ...(f.unit ? { unit: f.unit } : {}),
      ...(f.order !== undefined ? { order: f.order } : {}),
      ...(f.featureId !== undefined ? { featureId: f.featureId } : {}),
    })),
    reference: {
      systemName: c.systemName,
      groupId: c.groupId,
      ...(c.groupName !== undefined ? { groupName: c.groupName } : {}),
      ...(c.groupId2 !== undefined ? { groupId2: c.groupId2 } : {}),
    },
  }));
}

/** The keywords of the hit's and the detail's wire shape: all of them once, and by language. */
function keywords(article: Article) {
  return {
    keywords: [...new Set(article.keywords.flatMap((k) => k.values))],
    keywordsGroupedByLanguage: article.keywords.map((k) => ({ lang: k.lang, values: [...k.values] })),
  };
}

/** The wire Mime: the first description and the first alternative text (`MIME_ALT`), each when given. */
function mime(image: Article['images'][number]) {
  const description = image.descriptions[0]?.value;
  const alt = image.alts?.[0]?.value;
  return {
    mimeType: image.mimeType,
    href: image.href,
    ...(description ? { description } : {}),
    purpose: image.purpose,
    ...(alt ? { alt } : {}),
  };
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
    href: image.hrefs
      ? image.hrefs.map((h) => ({ lang: h.lang, value: h.value }))
      : languages.map((lang) => ({ lang, value: image.href })),
    description: image.descriptions.map((d) => ({ lang: d.lang, value: d.value })),
    purpose: image.purpose,
    alt: (image.alts ?? []).map((d) => ({ lang: d.lang, value: d.value })),
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
function articleHead(article: Article) {
  return {
    id: article.id,
    description: article.description,
    descriptions: article.descriptions.map((d) => ({ lang: d.lang, value: d.value })),
    ...(article.manufacturerArticleId !== undefined ? { manufacturerArticleId: article.manufacturerArticleId } : {}),
    ...(article.manufacturerName !== undefined ? { manufacturerName: article.manufacturerName } : {}),
  };
}

/**
 * Estimated shipping costs of an order of only this article at its minimum order quantity:
 * free from the shop's threshold, else the standard rate; zero when the shop is unknown.
 */
export function estimateShippingCosts(article: Article, shop: BusinessShop | undefined): Money {
  if (!shop) return { amount: decimal(0), currency: article.currency };
  const free = shop.shippingCosts.freeShippingFrom;
  const goods = toScaled(pricePerMinimumOrderQuantity(article));
  if (free && goods >= toScaled(free.amount))
    return { amount: decimal(0), currency: shop.shippingCosts.standard.currency };
  return { amount: dec(shop.shippingCosts.standard.amount), currency: shop.shippingCosts.standard.currency };
}

/** The article of a search hit: every field of the spec's table, in its order. */
export function presentHitArticle(article: Article, shop: BusinessShop | undefined) {
  const image = firstImage(article);
  const hasSpecialTaxes = article.specialTaxes.length > 0;
  const estimate = estimateShippingCosts(article, shop);
  return {
    ...articleHead(article),
    supplierArticleId: article.supplierArticleId,
    minimumOrderQuantity: article.orderDetails.minimumOrderQuantity,
    orderQuantityInterval: article.orderDetails.orderQuantityInterval,
    pricePerMinimumOrderQuantity: price('NET_CUSTOMER', pricePerMinimumOrderQuantity(article), article),
    ...(hasSpecialTaxes
      ? {
          pricePerMinimumOrderQuantityInclSpecialTaxes: price(
            'NET_INCL_SPECIAL_TAX',
            pricePerMinimumOrderQuantityInclSpecialTaxes(article),
            article,
          ),
        }
      : {}),
    orderUnit: article.orderDetails.orderUnit,
    shippingCostsEstimated: { amount: dec(estimate.amount), currency: estimate.currency },
    ...(image ? { firstMimeImage: mime(image), firstMimeImages: mimeWithLanguage(image, article) } : {}),
    articleFeatures: articleFeatures(article),
    ...keywords(article),
  };
}

/** A search hit: the article, its score and links `details` and the shop (`bshop` and `business-shop`). */
export function presentHit(article: Article, score: number, shop: BusinessShop | undefined, links: LinkBuilder) {
  return {
    article: presentHitArticle(article, shop),
    score,
    _schema: {
      links: [
        links.link('details', articlePath(article.id)),
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
