import { describe, expectTypeOf, it } from 'vitest';
import type {
  ArticleDetail,
  BlockPrice,
  Bucket,
  Decimal,
  Facet,
  Hit,
  ImportOutcome,
  ImportRun,
  ImportRunList,
  MimeInfo,
  MinimumOrderValue,
  Money,
  NewShop,
  ReturnPolicy,
  SearchReply,
  ShippingCosts,
  Shop,
  ShopList,
  StringWithLanguage,
  TypedValue,
} from './catalog-wire.js';

// The wire types name generated ones; a route renamed in the service would turn them into `never`
// silently, and `never` has every property. These checks run in `tsc -p apps/console/tsconfig.json`.
describe('catalog wire types', () => {
  it('name real replies of the content API', () => {
    expectTypeOf<SearchReply['members']>().toEqualTypeOf<readonly Hit[]>();
    expectTypeOf<Hit['article']['description']>().toEqualTypeOf<string>();
    expectTypeOf<Facet['buckets']>().toEqualTypeOf<readonly Bucket[]>();
    expectTypeOf<ArticleDetail['blockPricing']>().toEqualTypeOf<readonly BlockPrice[]>();
    expectTypeOf<ArticleDetail['descriptions']>().toEqualTypeOf<readonly StringWithLanguage[]>();
    expectTypeOf<TypedValue>().toEqualTypeOf<{ readonly type: string; readonly value: string }>();
    expectTypeOf<MimeInfo['href']>().toEqualTypeOf<string>();
    expectTypeOf<Money['amount']>().toEqualTypeOf<Decimal>();
    expectTypeOf<ShopList['members']>().toEqualTypeOf<readonly Shop[]>();
    expectTypeOf<ReturnPolicy['returnPeriodDays']>().toEqualTypeOf<number>();
    expectTypeOf<ShippingCosts['standard']>().toEqualTypeOf<Money>();
    expectTypeOf<MinimumOrderValue['minimumOrderValue']>().toEqualTypeOf<Money>();
    expectTypeOf<NewShop['id']>().toEqualTypeOf<string>();
    expectTypeOf<ImportRunList['members']>().toEqualTypeOf<readonly ImportRun[]>();
    expectTypeOf<ImportOutcome>().toEqualTypeOf<'committed' | 'committed-with-refusals' | 'refused'>();
  });
});
