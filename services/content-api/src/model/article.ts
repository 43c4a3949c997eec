import type { Decimal } from './decimal.js';

/** Languages the service knows (ISO 639-1); the spec says more may be added. */
export const LANGUAGES = ['de', 'fr', 'en', 'nl', 'es', 'it', 'cs', 'ga', 'sk', 'pl', 'hu'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

export interface StringWithLanguage {
  readonly lang: LanguageCode;
  readonly value: string;
}

export interface Money {
  readonly amount: Decimal;
  readonly currency: string;
}

/** A price step: `amount` (net, per `priceQuantity` order units) applies from `lowerBound` order units. */
export interface BlockPrice {
  readonly lowerBound: number;
  readonly amount: Decimal;
}

export interface SpecialTax {
  /** Per order unit, in the article's currency. */
  readonly amount: Decimal;
  readonly taxType: string;
}

export interface ArticleImage {
  readonly mimeType: string;
  readonly href: string;
  readonly purpose: string;
  readonly descriptions: readonly StringWithLanguage[];
}

export interface ArticleFeature {
  readonly name: string;
  readonly values: readonly string[];
  readonly unit?: string;
  readonly lang?: LanguageCode;
  readonly order?: number;
}

/** A classification of the article (`UNSPSC-7`, `UNSPSC-9`, `ECLASS-5.1.4` ...) with its features. */
export interface ArticleClassification {
  readonly systemName: string;
  readonly groupId: string;
  readonly features: readonly ArticleFeature[];
}

export interface ArticleOrderDetails {
  /** Unit code of the spec's set (see `unit-codes.ts`): the provider's, or what it was mapped to. */
  readonly orderUnit: string;
  readonly contentUnit?: string;
  /** The provider's order unit, only when it was not in the set and was mapped to `orderUnit`. */
  readonly providerOrderUnit?: string;
  /** The provider's content unit, only when it was mapped to `contentUnit`. */
  readonly providerContentUnit?: string;
  readonly numberOfContentUnitsPerOrderUnit?: Decimal;
  readonly minimumOrderQuantity: number;
  readonly orderQuantityInterval: number;
  readonly priceQuantity: number;
  /** Estimated days. */
  readonly deliveryTime?: number;
}

/**
 * The stored article: our own shape, written by the generator and the importers (one JSON Lines
 * record each) and turned into hits and details by the presenters. `id` is unique across shops.
 */
export interface Article {
  readonly id: string;
  readonly shopId: string;
  readonly supplierArticleId: string;
  readonly description: string;
  readonly descriptions: readonly StringWithLanguage[];
  readonly descriptionsLong: readonly StringWithLanguage[];
  readonly manufacturerName?: string;
  readonly manufacturerArticleId?: string;
  readonly internationalArticleIds: readonly { readonly type: string; readonly value: string }[];
  readonly keywords: readonly { readonly lang: LanguageCode; readonly values: readonly string[] }[];
  readonly currency: string;
  /** VAT rate as a fraction (`{value: 19, decimalDigits: 2}` = 19 %). */
  readonly tax: Decimal;
  /** Net prices, ascending `lowerBound`, the first at 1. */
  readonly blockPrices: readonly BlockPrice[];
  readonly specialTaxes: readonly SpecialTax[];
  readonly orderDetails: ArticleOrderDetails;
  readonly classifications: readonly ArticleClassification[];
  readonly images: readonly ArticleImage[];
  readonly references: readonly { readonly articleReferenceType: string; readonly refId: string }[];
}

/** A business shop: a supplier's catalogue with its commercial terms. */
export interface BusinessShop {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly returnPolicy: {
    readonly returnsAccepted: boolean;
    /** Days after delivery. */
    readonly returnPeriodDays: number;
    /** Fraction of the goods value (`{value: 10, decimalDigits: 2}` = 10 %). */
    readonly restockingFee: Decimal;
    readonly conditions: readonly StringWithLanguage[];
  };
  readonly shippingCosts: {
    readonly standard: Money;
    /** Orders with a net goods value at or above this ship free; absent: never free. */
    readonly freeShippingFrom?: Money;
    readonly countries: readonly string[];
  };
  readonly minimumOrderValue: {
    readonly amount: Money;
    /** Charged when the net goods value is below `amount`; absent: such orders are refused. */
    readonly surchargeBelow?: Money;
  };
}
