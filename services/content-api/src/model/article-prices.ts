import type { Article } from './article.js';
import { addDecimals, decimal, scaleDecimal, type Decimal } from './decimal.js';

/** The members of an article its prices are computed from. */
type Priced = Pick<Article, 'blockPrices' | 'specialTaxes'> & {
  readonly orderDetails: Pick<Article['orderDetails'], 'minimumOrderQuantity' | 'priceQuantity'>;
};

/** Net unit price (per `priceQuantity` order units) for an order of `quantity` order units. */
export function blockPriceFor(article: Pick<Article, 'blockPrices'>, quantity: number): Decimal {
  let chosen = article.blockPrices[0]?.amount ?? decimal(0);
  for (const step of article.blockPrices) if (step.lowerBound <= quantity) chosen = step.amount;
  return chosen;
}

/** Net price of the minimum order quantity: block price at that quantity x quantity / priceQuantity. */
export function pricePerMinimumOrderQuantity(article: Priced): Decimal {
  const { minimumOrderQuantity, priceQuantity } = article.orderDetails;
  return scaleDecimal(blockPriceFor(article, minimumOrderQuantity), minimumOrderQuantity, priceQuantity);
}

/** Special taxes of one order unit, summed; zero when the article has none. */
export function specialTaxPerUnit(article: Pick<Article, 'specialTaxes'>): Decimal {
  return article.specialTaxes.reduce<Decimal>((sum, t) => addDecimals(sum, t.amount), decimal(0));
}

/** Price of the minimum order quantity including special taxes. */
export function pricePerMinimumOrderQuantityInclSpecialTaxes(article: Priced): Decimal {
  return addDecimals(
    pricePerMinimumOrderQuantity(article),
    scaleDecimal(specialTaxPerUnit(article), article.orderDetails.minimumOrderQuantity),
  );
}
