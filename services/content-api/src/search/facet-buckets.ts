import { compareCodePoints } from './code-point-order.js';
import { FACET_BUCKET_LIMIT } from './search-query.js';

/** One bucket of a facet: a value and how many matching articles have it. */
export interface Bucket {
  readonly value: string;
  readonly count: number;
}

/**
 * The buckets a facet shows: values with a positive count, most frequent first, ties by value in
 * code point order, at most `limit` (default `FACET_BUCKET_LIMIT`). Every engine ends here, so
 * they agree on which buckets a long facet keeps.
 */
export function topBuckets(counts: Iterable<readonly [string, number]>, limit = FACET_BUCKET_LIMIT): Bucket[] {
  const buckets: Bucket[] = [];
  for (const [value, count] of counts) if (count > 0) buckets.push({ value, count });
  buckets.sort((x, y) => y.count - x.count || compareCodePoints(x.value, y.value));
  return buckets.length > limit ? buckets.slice(0, limit) : buckets;
}
