import type { ShopWordCounts } from './shop-word-counts.js';

/**
 * The catalog's vocabulary from its segments' stored words (`ShopWordCounts`, one per shop): each
 * word once with the articles holding it in all of them, as the text index counts it. Only words
 * from `a` on are kept, as read from the index (where numbers sort before `a`); the stored words
 * have no digits. Built in time proportional to the words, where the text index reads every
 * word's list of articles to count them.
 */
export function summedWordCounts(parts: Iterable<ShopWordCounts>): Map<string, number> {
  const sum = new Map<string, number>();
  for (const part of parts)
    for (const [word, articles] of part.entries()) {
      if (word < 'a') continue;
      sum.set(word, (sum.get(word) ?? 0) + articles);
    }
  return sum;
}
