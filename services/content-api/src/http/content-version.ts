import type { FastifyReply } from 'fastify';
import { invalidQueryParam } from '../errors.js';
import type { BusinessShop } from '../model/article.js';
import type { SearchBackend } from '../search/search-backend.js';
import { versionOfShops } from '../search/shop-versions.js';
import { DEFAULT_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL } from './media-types.js';

/** The current content versions and the shops (small; cached until the store's version changes). */
export interface ContentSnapshot {
  /** Version of the content of every shop (`versionOf([])`). */
  readonly hash: string | undefined;
  readonly shops: ReadonlyMap<string, BusinessShop>;
  /**
   * Version of what a request over `shopIds` (every shop when empty) sees: a shop's own version,
   * or a digest of several (`versionOfShops`). Importing one shop leaves the others' unchanged.
   */
  versionOf(shopIds: readonly string[]): string | undefined;
}

/** What a request reads: the content versions and the backend to read the content from. */
export interface ResolvedVersion {
  readonly snapshot: ContentSnapshot;
  readonly backend: SearchBackend;
}

/** Reads the current content version per request and keeps its shop map until the version changes. */
export class ContentVersions {
  readonly #backend: SearchBackend;
  readonly #primary: ContentVersions | undefined;
  #cached: { readonly store: string | undefined; readonly snapshot: ContentSnapshot } | undefined;

  constructor(backend: SearchBackend) {
    this.#backend = backend;
    this.#primary = backend.primary ? new ContentVersions(backend.primary) : undefined;
  }

  /**
   * The versions and backend for a request asking for content version `requested` of `scope`
   * (shop ids, every shop when empty). Normally `current()` and the backend. When reads go to a
   * replica that has not replayed that version yet but the primary has it (a link handed out by
   * an instance whose replica is ahead), the primary's versions and backend: links stay valid
   * while replicas lag.
   */
  async resolve(requested: string | undefined, scope: readonly string[]): Promise<ResolvedVersion> {
    const snapshot = await this.current();
    if (requested === undefined || !this.#primary || snapshot.versionOf(scope) === requested)
      return { snapshot, backend: this.#backend };
    const primary = await this.#primary.current();
    if (primary.versionOf(scope) === requested) return { snapshot: primary, backend: this.#primary.#backend };
    return { snapshot, backend: this.#backend };
  }

  async current(): Promise<ContentSnapshot> {
    const store = await this.#backend.currentHash();
    if (this.#cached && this.#cached.store === store) return this.#cached.snapshot;
    const [{ shops }, stored] = await Promise.all([this.#backend.listShops(10_000, 0), this.#backend.shopVersions()]);
    // Versions of removed shops may linger in the store; only stored shops count.
    const versions = new Map([...stored].filter(([id]) => shops.some((s) => s.id === id)));
    // Asked for every link of every response (a search page: dozens): kept per scope for this snapshot.
    const known = new Map<string, string | undefined>();
    const versionOf = (shopIds: readonly string[]) => {
      const key = shopIds.length === 1 ? `1${shopIds[0]!}` : JSON.stringify(shopIds);
      if (known.has(key)) return known.get(key);
      const version = versionOfShops(versions, shopIds);
      if (known.size >= 4096) known.clear();
      known.set(key, version);
      return version;
    };
    const snapshot = { hash: versionOf([]), shops: new Map(shops.map((s) => [s.id, s])), versionOf };
    this.#cached = { store, snapshot };
    return snapshot;
  }
}

/**
 * Applies a request's `hash`: absent -> `Cache-Control: private, max-age=300`; the current
 * version -> cacheable as immutable; any other value -> 400 invalid-query-param naming the
 * current version (old versions are not kept, so they cannot be served).
 */
export function applyRequestedVersion(
  reply: FastifyReply,
  requested: string | undefined,
  current: string | undefined,
): void {
  if (requested === undefined) {
    reply.header('cache-control', DEFAULT_CACHE_CONTROL);
    return;
  }
  if (requested !== current) {
    throw invalidQueryParam('hash', [
      {
        path: '#/hash',
        code: 'UNKNOWN',
        description:
          `content version ${requested} is not the current one${current ? ` (${current})` : ''}; ` +
          'repeat the request without hash or with the current one',
      },
    ]);
  }
  reply.header('cache-control', IMMUTABLE_CACHE_CONTROL);
}
