import { compareCodePoints } from './code-point-order.js';
import { FACET_BUCKET_LIMIT } from './search-query.js';

/**
 * One bucket of a facet: a value and how many matching articles have it. The value `''` counts
 * the articles without one (no manufacturer, no group in that classification). A rest bucket
 * (`otherValues` set, value `''`) counts the articles of every value past the limit.
 */
export interface Bucket {
  readonly value: string;
  readonly count: number;
  /** Only on the rest bucket: how many values it gathers. */
  readonly otherValues?: number;
  /** The name a catalog gave the value (a classification group's `groupName`), when one did. */
  readonly label?: string;
}

/**
 * The buckets a facet shows: values with a positive count (`''` for articles without a value),
 * most frequent first, ties by value in code point order. With more than `limit` values (default
 * `FACET_BUCKET_LIMIT`), the first `limit - 1` and a rest bucket holding all others, so the counts
 * always add up to the articles counted. Every engine ends here, so they agree on the buckets.
 */
export function topBuckets(counts: Iterable<readonly [string, number]>, limit = FACET_BUCKET_LIMIT): Bucket[] {
  const buckets: Bucket[] = [];
  for (const [value, count] of counts) if (count > 0) buckets.push({ value, count });
  buckets.sort((x, y) => y.count - x.count || compareCodePoints(x.value, y.value));
  if (buckets.length <= limit) return buckets;
  const kept = buckets.slice(0, limit - 1);
  let rest = 0;
  for (let i = limit - 1; i < buckets.length; i += 1) rest += buckets[i]!.count;
  kept.push({ value: '', count: rest, otherValues: buckets.length - kept.length });
  return kept;
}
