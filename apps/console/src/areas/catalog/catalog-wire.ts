/**
 * The content API's replies as the catalog area reads them (docs/reference/article-content-api.md).
 * Only the members the page shows are typed; a reply may carry more.
 */

/** `value / 10^decimalDigits`. */
export interface Decimal {
  readonly value: number;
  readonly decimalDigits: number;
}

export interface Money {
  readonly amount: Decimal;
  readonly currency: string;
}

export interface Price extends Money {
  readonly priceType: string;
  readonly tax: Decimal;
}

export interface BlockPrice extends Price {
  readonly lowerBound: number;
  readonly validFrom?: string;
  readonly validUntil?: string;
  readonly territories?: readonly string[];
}

export interface StringWithLanguage {
  readonly lang: string;
  readonly value: string;
}

export interface Link {
  readonly href: string;
  readonly rel: string;
}

export interface Links {
  readonly _schema: { readonly links: readonly Link[] };
}

export interface MimeInfo {
  readonly mimeType: string;
  readonly href: string;
  readonly description?: string;
  readonly purpose: string;
  readonly alt?: string;
}

export interface Feature {
  readonly lang?: string;
  readonly name: string;
  readonly values: readonly string[];
  readonly unit?: string;
  readonly order?: number;
}

export interface ArticleFeatures {
  readonly features: readonly Feature[];
  readonly reference: { readonly systemName: string; readonly groupId: string };
}

export interface TypedValue {
  readonly type: string;
  readonly value: string;
}

/** The article of a search hit. */
export interface HitArticle {
  readonly id: string;
  readonly description: string;
  readonly manufacturerName?: string;
  readonly manufacturerArticleId?: string;
  readonly supplierArticleId: string;
  readonly minimumOrderQuantity: number;
  readonly orderQuantityInterval: number;
  readonly pricePerMinimumOrderQuantity: Price;
  readonly pricePerMinimumOrderQuantityInclSpecialTaxes?: Price;
  readonly orderUnit: string;
  readonly shippingCostsEstimated: Money;
  readonly firstMimeImage?: MimeInfo;
}

export interface Hit extends Links {
  readonly article: HitArticle;
  readonly score: number;
}

export interface Bucket extends Links {
  readonly value: string;
  readonly count: number;
  readonly otherValues?: number;
}

export interface Facet {
  readonly facetName: string;
  readonly buckets: readonly Bucket[];
}

/** `GET /api/articles`. */
export interface SearchReply extends Links {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  readonly members: readonly Hit[];
  readonly facets: readonly Facet[];
}

export interface UnitInfo {
  readonly unit: string;
  readonly providerUnit: string;
}

export interface OrderDetails {
  readonly orderUnit: string;
  readonly contentUnit?: string;
  readonly numberOfContentUnitsPerOrderUnit?: Decimal;
  readonly minimumOrderQuantity: number;
  readonly orderQuantityInterval: number;
  readonly priceQuantity: number;
  readonly deliveryTime?: number;
  readonly unitInfo: { readonly orderUnit: UnitInfo; readonly contentUnit?: UnitInfo };
}

/** `GET /api/articles/{id}`. */
export interface ArticleDetail extends Links {
  readonly id: string;
  readonly description: string;
  readonly descriptions: readonly StringWithLanguage[];
  readonly manufacturerName?: string;
  readonly manufacturerArticleId?: string;
  readonly mimeInfo: readonly MimeInfo[];
  readonly articleFeatures: readonly ArticleFeatures[];
  readonly details: {
    readonly descriptionLong?: string;
    readonly descriptionsLong: readonly StringWithLanguage[];
    readonly supplierArticleId: string;
    readonly internationalArticleId: readonly TypedValue[];
    readonly supplierAlternativeArticleId?: string;
    readonly buyerArticleId?: readonly TypedValue[];
    readonly articleStatus?: readonly TypedValue[];
    readonly remarks?: readonly StringWithLanguage[];
    readonly specialTreatmentClass?: readonly TypedValue[];
    readonly customsTariffNumber?: string;
    readonly countryOfOrigin?: string;
  };
  readonly blockPricing: readonly BlockPrice[];
  readonly blockPricingInclSpecialTax: readonly BlockPrice[];
  readonly specialTaxes: readonly { readonly amount: Decimal; readonly currency: string; readonly taxType: string }[];
  readonly orderDetails: OrderDetails;
  readonly references: readonly { readonly articleReferenceType: string; readonly refId: string }[];
}

/** A member of `GET /api/business-shops`. */
export interface Shop extends Links {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
}

export interface ShopList {
  readonly total: number;
  readonly members: readonly Shop[];
}

export interface ReturnPolicy {
  readonly returnsAccepted: boolean;
  readonly returnPeriodDays: number;
  readonly restockingFee: Decimal;
  readonly conditions: readonly StringWithLanguage[];
}

export interface ShippingCosts {
  readonly standard: Money;
  readonly freeShippingFrom?: Money;
  readonly countries: readonly string[];
}

export interface MinimumOrderValue {
  readonly minimumOrderValue: Money;
  readonly surchargeBelow?: Money;
}

/** A shop with the three policies its links lead to. */
export interface ShopWithPolicies {
  readonly shop: Shop;
  readonly returnPolicy: ReturnPolicy;
  readonly shippingCosts: ShippingCosts;
  readonly minimumOrderValue: MinimumOrderValue;
}

/** The body `POST /admin/business-shops` takes (defaults fill what is left out). */
export interface NewShop {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly shippingCosts?: { readonly standard: { readonly amount: Decimal } };
  readonly minimumOrderValue?: { readonly amount: { readonly amount: Decimal } };
  readonly returnPolicy?: { readonly returnPeriodDays: number };
}

/** The href of the first link with `rel`, if any. */
export function linkOf(resource: Links, rel: string): string | undefined {
  return resource._schema.links.find((link) => link.rel === rel)?.href;
}

/** How an import ended (`GET /admin/business-shops/{id}/imports`). */
export type ImportOutcome = 'committed' | 'committed-with-refusals' | 'refused';

/** One recorded catalog import of a shop. */
export interface ImportRun {
  readonly runNo: number;
  readonly shopId: string;
  readonly fileName: string;
  readonly format: 'bmecat' | 'jsonl';
  readonly mode: string | null;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly outcome: ImportOutcome;
  readonly refusal: string | null;
  readonly counts: {
    readonly records: number;
    readonly imported: number;
    readonly added: number | null;
    readonly updated: number | null;
    readonly deleted: number;
    readonly alreadyAbsent: number;
    readonly refused: number;
  };
  readonly refusedRecords: readonly { readonly line: number; readonly reason: string }[];
  readonly refusedNotListed: number;
}

export interface ImportRunList {
  readonly total: number;
  readonly members: readonly ImportRun[];
}
