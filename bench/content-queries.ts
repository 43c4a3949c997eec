/**
 * The search queries the content API benchmarks share (`content-api`, `content-throughput`), so
 * their numbers compare: words typed by buyers, four facets, and one `fq` filter.
 */
import { generateCatalog, searchWords } from '@triad/content-api-service';

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

/**
 * `count` different words of the demo catalog's vocabulary (seed 1, the benchmarks' catalog), as
 * the indexes split them (`searchWords`): the words of the descriptions of its first 5,000
 * articles, most frequent first (ties alphabetically). The catalog's few hundred words of
 * kinds, colours, sizes and manufacturers come first, then model numbers (a handful of matches
 * each). For a row of queries that do not repeat within a few hundred requests.
 */
export function catalogWords(count: number): string[] {
  const counts = new Map<string, number>();
  for (const article of generateCatalog({ articles: 5_000, seed: 1 }).articles())
    for (const d of article.descriptions)
      for (const word of searchWords(d.value)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, count)
    .map(([word]) => word);
}
