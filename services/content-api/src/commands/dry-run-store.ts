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
 * an article out of search; an upsert or price change of an article kept not searchable
 * (`waiting` lookup) makes it searchable and counts as updated. Without `lookup` every article a change
 * names is taken to exist (the check then has no store to ask).
 */
export class DryRunStore implements Pick<SearchBackend, 'replaceShopCatalog' | 'applyShopDelta'> {
  readonly #lookup: ArticleLookup | undefined;
  readonly #waiting: ArticleLookup | undefined;

  /** `waiting`: whether the shop keeps an article not searchable (an upsert or price change makes it searchable). */
  constructor(lookup?: ArticleLookup, waiting?: ArticleLookup) {
    this.#lookup = lookup;
    this.#waiting = waiting;
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
    // The same for articles kept not searchable.
    const keptNow = new Map<string, boolean>();
    const kept = async (id: string) => keptNow.get(id) ?? (this.#waiting ? await this.#waiting(id) : false);
    let added = 0;
    let updated = 0;
    let deleted = 0;
    for await (const change of delta.changes) {
      const id = change.kind === 'upsert' || change.kind === 'wait' ? change.article.id : change.articleId;
      if (change.kind === 'wait') {
        now.set(id, false);
        keptNow.set(id, true);
        continue;
      }
      const there = await exists(id);
      const waiting = !there && (await kept(id));
      if (waiting) keptNow.set(id, false);
      if (change.kind === 'upsert') {
        if (there || waiting) updated += 1;
        else added += 1;
        now.set(id, true);
      } else if (!there && !waiting) delta.onUnknown?.(change);
      else if (change.kind === 'delete') {
        deleted += 1;
        now.set(id, false);
      } else {
        updated += 1;
        now.set(id, true);
      }
    }
    delta.beforeCommit?.();
    return { added, updated, deleted };
  }
}
