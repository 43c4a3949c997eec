/**
 * The search queries the content API benchmarks share (`content-api`, `content-throughput`), so
 * their numbers compare: words typed by buyers, four facets, and one `fq` filter.
 */

/** Queries of one and of two words, as typed (decision 0040). */
export const ONE_WORD = ['pipette', 'gants', 'klebeband', 'ordner', 'akkuschrauber', 'labels'];
export const TWO_WORDS = ['bosch blau', 'copy paper', 'ordner schwarz', 'akkuschrauber makita', 'tesa klebeband'];
/** Four facets, as a client showing them asks. */
export const FOUR_FACETS = ['businessShopId', 'manufacturerName', 'ECLASS', 'UNSPSC']
  .map((f) => `facet=${f}`)
  .join('&');
/** `fq`: Bosch or Tesa, at most 150.00 per minimum order quantity. */
export const BOSCH_OR_TESA_UNDER_150 = JSON.stringify({
  expression: {
    type: 'And',
    operands: [
      {
        type: 'Or',
        operands: [
          { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Bosch' },
          { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Tesa' },
        ],
      },
      {
        type: 'DecimalRangeFilter',
        filterName: 'pricePerMinimumOrderQuantity',
        upperBound: { value: 15000, decimalDigits: 2 },
      },
    ],
  },
});
