import { isWaiting } from '../model/waiting-article.js';
import type { SearchBackend, ShopCatalogDelta, ShopCatalogReplacement, DeltaCounts } from '../search/search-backend.js';

/** Tells whether the shop holds an article (a store's `findArticle` fits). */
export type ArticleLookup = (articleId: string) => Promise<boolean>;

/**
 * A store that takes an import as a real one would and writes nothing (`triad catalog check`):
 * a replacement reports repeated ids as the store's unique index would; a delta looks each named
 * article up (`lookup`, the real store read only) to count it added, updated, deleted or unknown
 * as `applyShopDelta` does, then calls `beforeCommit`. Records kept not searchable are counted by
 * the import, not here: a replacement returns the searchable articles, and a `wait` change takes
 * an article out of search. The lookup sees searchable articles: a price change for an article
 * kept not searchable is reported as for an unknown one. Without `lookup` every article a change
 * names is taken to exist (the check then has no store to ask).
 */
export class DryRunStore implements Pick<SearchBackend, 'replaceShopCatalog' | 'applyShopDelta'> {
  readonly #lookup: ArticleLookup | undefined;

  constructor(lookup?: ArticleLookup) {
    this.#lookup = lookup;
  }

  async replaceShopCatalog(replacement: ShopCatalogReplacement): Promise<number> {
    const seen = new Set<string>();
    let searchable = 0;
    for await (const article of replacement.articles) {
      if (!seen.has(article.id)) {
        seen.add(article.id);
        if (!isWaiting(article)) searchable += 1;
        continue;
      }
      if (!replacement.onDuplicate || !('document' in article))
        throw new Error(`article ${article.id} is in the catalog twice`);
      replacement.onDuplicate(article);
    }
    return searchable;
  }

  async applyShopDelta(delta: ShopCatalogDelta): Promise<DeltaCounts> {
    // What this delta did to an article already (true: it exists now), before the store is asked.
    const now = new Map<string, boolean>();
    const exists = async (id: string) => now.get(id) ?? (this.#lookup ? await this.#lookup(id) : true);
    let added = 0;
    let updated = 0;
    let deleted = 0;
    for await (const change of delta.changes) {
      const id = change.kind === 'upsert' || change.kind === 'wait' ? change.article.id : change.articleId;
      const there = await exists(id);
      if (change.kind === 'wait') now.set(id, false);
      else if (change.kind === 'upsert') {
        if (there) updated += 1;
        else added += 1;
        now.set(id, true);
      } else if (!there) delta.onUnknown?.(change);
      else if (change.kind === 'delete') {
        deleted += 1;
        now.set(id, false);
      } else updated += 1;
    }
    delta.beforeCommit?.();
    return { added, updated, deleted };
  }
}
