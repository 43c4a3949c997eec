import { randomBytes } from 'node:crypto';
import type { SearchBackend } from '../search/search-backend.js';
import type { StoreWait } from '../search/store-busy-error.js';
import { generateCatalog } from './generate-catalog.js';

/** What seeding did. */
export type SeedOutcome =
  | { readonly status: 'seeded'; readonly articles: number; readonly hash: string }
  | { readonly status: 'skipped'; readonly articles: number };

/**
 * Loads a generated catalog of `articles` articles (seed 1) as a new content version when the
 * store holds no article; otherwise leaves it alone. `wait` says how long to wait for an import
 * that holds the store.
 *
 * @throws StoreBusyError when an import held the store longer than `wait.maxWaitMs`.
 */
export async function seedDemoCatalog(
  backend: SearchBackend,
  articles: number,
  wait: StoreWait = {},
): Promise<SeedOutcome> {
  const existing = await backend.countArticles();
  if (existing > 0) return { status: 'skipped', articles: existing };
  const catalog = generateCatalog({ articles, seed: 1 });
  const hash = randomBytes(8).toString('hex');
  const count = await backend.replaceCatalog({ shops: catalog.shops, articles: catalog.articles(), hash, ...wait });
  return { status: 'seeded', articles: count, hash };
}
