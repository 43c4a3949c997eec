/**
 * The content API's replies as the catalog area reads them (docs/reference/article-content-api.md),
 * named from the types generated from the service's OpenAPI document (`npm run generate`).
 */
import type { components, paths } from '../../generated/content-api.js';
import type { Immutable, ReplyBody, RequestBody } from '../../shell/api-types.js';

type Schemas = Immutable<components['schemas']>;

/** `value / 10^decimalDigits`. */
export type Decimal = Schemas['Decimal'];

export type Money = Schemas['Money'];

export type Price = Schemas['Price'];

export type BlockPrice = ArticleDetail['blockPricing'][number];

export type StringWithLanguage = Schemas['StringWithLanguage'];

export type Link = Schemas['Link'];

/** A resource with links (`_schema.links`). */
export interface Links {
  readonly _schema: Schemas['Links'];
}

export type MimeInfo = Schemas['Mime'];

export type ArticleFeatures = Schemas['ArticleFeatures'];

export type Feature = ArticleFeatures['features'][number];

export type TypedValue = ArticleDetail['details']['internationalArticleId'][number];

/** `GET /api/articles`. */
export type SearchReply = ReplyBody<paths['/api/articles']['get']>;

export type Hit = SearchReply['members'][number];

/** `GET /api/suggest`: completions and corrections of the last word typed. */
export type SuggestReply = ReplyBody<paths['/api/suggest']['get']>;

export type Suggestion = SuggestReply['completions'][number];

/** The article of a search hit. */
export type HitArticle = Hit['article'];

export type Facet = SearchReply['facets'][number];

export type Bucket = Facet['buckets'][number];

/** `GET /api/articles/{id}`. */
export type ArticleDetail = ReplyBody<paths['/api/articles/{articleId}']['get']>;

export type OrderDetails = ArticleDetail['orderDetails'];

export type UnitInfo = OrderDetails['unitInfo']['orderUnit'];

/** `GET /api/business-shops`. */
export type ShopList = ReplyBody<paths['/api/business-shops']['get']>;

/** A member of `GET /api/business-shops`. */
export type Shop = ShopList['members'][number];

export type ReturnPolicy = ReplyBody<paths['/api/business-shops/{shopId}/return-policy']['get']>;

export type ShippingCosts = ReplyBody<paths['/api/business-shops/{shopId}/shipping-costs']['get']>;

export type MinimumOrderValue = ReplyBody<paths['/api/business-shops/{shopId}/minimum-order-value']['get']>;

/** A shop with the three policies its links lead to. */
export interface ShopWithPolicies {
  readonly shop: Shop;
  readonly returnPolicy: ReturnPolicy;
  readonly shippingCosts: ShippingCosts;
  readonly minimumOrderValue: MinimumOrderValue;
}

/** The body `POST /admin/business-shops` takes (defaults fill what is left out). */
export type NewShop = RequestBody<paths['/admin/business-shops']['post']>;

/** The href of the first link with `rel`, if any. */
export function linkOf(resource: Links, rel: string): string | undefined {
  return resource._schema.links.find((link) => link.rel === rel)?.href;
}

/** `GET /admin/business-shops/{id}/imports`: a shop's recorded catalog imports, newest first. */
export type ImportRunList = ReplyBody<paths['/admin/business-shops/{shopId}/imports']['get']>;

/** One recorded catalog import of a shop. */
export type ImportRun = ImportRunList['members'][number];

/** How an import ended. */
export type ImportOutcome = ImportRun['outcome'];
