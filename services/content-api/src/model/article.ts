import type { Decimal } from './decimal.js';

/**
 * Languages the service knows (ISO 639-1): the spec's eleven first, then the other official
 * languages of the EU and a few more that suppliers' catalogs come in (the spec allows more).
 */
export const LANGUAGES = [
  'de',
  'fr',
  'en',
  'nl',
  'es',
  'it',
  'cs',
  'ga',
  'sk',
  'pl',
  'hu',
  'bg',
  'da',
  'el',
  'et',
  'fi',
  'hr',
  'lt',
  'lv',
  'mt',
  'pt',
  'ro',
  'sl',
  'sv',
  'no',
  'nb',
  'nn',
  'is',
  'tr',
  'ru',
  'uk',
  'zh',
  'ja',
  'ko',
] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

const LANGUAGE_SET: ReadonlySet<unknown> = new Set(LANGUAGES);

/** Whether `value` is one of the `LANGUAGES`. */
export function isLanguageCode(value: unknown): value is LanguageCode {
  return LANGUAGE_SET.has(value);
}

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

/**
 * A media file of the article (BMEcat `MIME`): an image, a data sheet, a safety data sheet ...;
 * `purpose` says which (BMEcat's `MIME_PURPOSE`: `normal`, `thumbnail`, `detail`, `data_sheet`,
 * `safety_data_sheet`, `logo`, `icon`, `others`).
 */
export interface ArticleImage {
  readonly mimeType: string;
  /** Absolute when the catalog gave a `MIME_ROOT` for a relative source. */
  readonly href: string;
  readonly purpose: string;
  readonly descriptions: readonly StringWithLanguage[];
  /** Alternative texts (`MIME_ALT`). */
  readonly alts?: readonly StringWithLanguage[];
  /** The source per language, when the catalog gives one per language (BMEcat 2005). */
  readonly hrefs?: readonly StringWithLanguage[];
}

/** An identifier with its kind: a buyer's article number (`type` = the buyer's scheme), a status. */
export interface TypedValue {
  readonly type: string;
  readonly value: string;
}

/** When and where the article's prices apply (BMEcat `DATETIME` and `TERRITORY` of the prices). */
export interface PriceConditions {
  /** ISO 8601 date or date-time, as the catalog gives it. */
  readonly validFrom?: string;
  readonly validUntil?: string;
  /** ISO 3166 country codes; empty: everywhere. */
  readonly territories: readonly string[];
  /**
   * The BMEcat `price_type` the block prices were read from (`net_customer`, `net_list`,
   * `gros_list` converted to net, `udp_*` ...; the shop's `priceTypes` chose it); absent for
   * records that give net prices directly (JSON Lines).
   */
  readonly priceType?: string;
  /** True when the prices gave no `TAX` and the shop's `defaultTax` was used. */
  readonly taxFromShop?: boolean;
}

export interface ArticleFeature {
  /** The feature's name; its id when the catalog gives no name for the id (`FT_IDREF` without a definition). */
  readonly name: string;
  /** The id of the feature's definition (BMEcat 2005 `FT_ID` / `FT_IDREF`, such as an ECLASS IRDI), when given. */
  readonly featureId?: string;
  readonly values: readonly string[];
  readonly unit?: string;
  readonly lang?: LanguageCode;
  readonly order?: number;
}

/**
 * A classification of the article (`UNSPSC-7`, `UNSPSC-9`, `ECLASS-5.1.4` ...) with its features;
 * `systemName` `none` holds features the catalog gives without a classification system.
 */
export interface ArticleClassification {
  readonly systemName: string;
  readonly groupId: string;
  /** The group's name, as the catalog gives it (`REFERENCE_FEATURE_GROUP_NAME`, `CLASSIFICATION_GROUP_NAME`). */
  readonly groupName?: string;
  /** The group's id in a second form (BMEcat 2005 `REFERENCE_FEATURE_GROUP_ID2`). */
  readonly groupId2?: string;
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
  /** Net prices, ascending `lowerBound`; the minimum order quantity is at least the first bound. */
  readonly blockPrices: readonly BlockPrice[];
  readonly specialTaxes: readonly SpecialTax[];
  readonly orderDetails: ArticleOrderDetails;
  readonly classifications: readonly ArticleClassification[];
  /** Every media file, in catalog order (not only images, despite the name). */
  readonly images: readonly ArticleImage[];
  /** `refId` is an article id of the same shop (`<shopId>:<supplierArticleId>`). */
  readonly references: readonly { readonly articleReferenceType: string; readonly refId: string }[];
  /** The supplier's other article number (BMEcat `SUPPLIER_ALT_AID` / `SUPPLIER_ALT_PID`). */
  readonly supplierAlternativeArticleId?: string;
  /** Buyers' article numbers (`BUYER_AID` / `BUYER_PID`), `type` naming the buyer's scheme. */
  readonly buyerArticleIds?: readonly TypedValue[];
  /** Status marks (`ARTICLE_STATUS` / `PRODUCT_STATUS`): `type` as `core_article`, `value` the supplier's text. */
  readonly statuses?: readonly TypedValue[];
  readonly priceConditions?: PriceConditions;
  /** The supplier's remarks for the buyer (`REMARKS`). */
  readonly remarks?: readonly StringWithLanguage[];
  /** Regulations the article falls under (`SPECIAL_TREATMENT_CLASS`): `type` as `GGVS` or `GHS`, `value` the class. */
  readonly specialTreatmentClasses?: readonly TypedValue[];
  /** Customs tariff number (BMEcat 2005 `CUSTOMS_NUMBER`). */
  readonly customsTariffNumber?: string;
  /** ISO 3166 country of origin (BMEcat 2005 `COUNTRY_OF_ORIGIN`). */
  readonly countryOfOrigin?: string;
  /** Weight of one order unit in kilograms (BMEcat 2005 `PRODUCT_DIMENSIONS/WEIGHT`). */
  readonly weight?: Decimal;
}

/** BMEcat price types a shop takes when it names none, in order of preference. */
export const DEFAULT_PRICE_TYPES: readonly string[] = ['net_customer', 'net_list', 'gros_list'];

/** A business shop: a supplier's catalogue with its commercial terms. */
export interface BusinessShop {
  readonly id: string;
  readonly name: string;
  /** The one currency of all its amounts; catalog prices in another currency are refused. */
  readonly currency: string;
  /** VAT rate (fraction) for catalog prices without `TAX`; absent: such prices are refused. */
  readonly defaultTax?: Decimal;
  /**
   * BMEcat price types the shop takes, most preferred first; absent: `DEFAULT_PRICE_TYPES`.
   * `gros_list` (and any type starting `gros_`) is converted to net with its tax.
   */
  readonly priceTypes?: readonly string[];
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

/**
 * New block prices (and optionally currency, tax, special taxes, price conditions) of one stored
 * article; members left out keep their stored value, a member given as undefined removes it.
 */
export type ArticlePriceChange = Pick<Article, 'blockPrices'> &
  Partial<Pick<Article, 'currency' | 'tax' | 'specialTaxes' | 'priceConditions'>>;
