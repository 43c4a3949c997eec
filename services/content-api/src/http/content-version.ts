import type { FastifyReply } from 'fastify';
import { invalidQueryParam } from '../errors.js';
import type { BusinessShop } from '../model/article.js';
import type { SearchBackend } from '../search/search-backend.js';
import { DEFAULT_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL } from './media-types.js';

/** The current content version and its shops (small; cached until the version changes). */
export interface ContentSnapshot {
  readonly hash: string | undefined;
  readonly shops: ReadonlyMap<string, BusinessShop>;
}

/** Reads the current content version per request and keeps its shop map until the version changes. */
export class ContentVersions {
  readonly #backend: SearchBackend;
  #cached: ContentSnapshot | undefined;

  constructor(backend: SearchBackend) {
    this.#backend = backend;
  }

  async current(): Promise<ContentSnapshot> {
    const hash = await this.#backend.currentHash();
    if (this.#cached && this.#cached.hash === hash) return this.#cached;
    const { shops } = await this.#backend.listShops(10_000, 0);
    this.#cached = { hash, shops: new Map(shops.map((s) => [s.id, s])) };
    return this.#cached;
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
