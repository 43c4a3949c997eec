import { CONTENT_MEDIA_TYPE } from '../http/media-types.js';

/** A hypermedia link as the wire carries it (`_schema.links[]`). */
export interface Link {
  readonly href: string;
  readonly mediaType: string;
  readonly method: 'GET';
  readonly rel: string;
}

/** Content versions by the shops a request covers (`ContentSnapshot.versionOf`). */
export interface ContentVersionsByShop {
  versionOf(shopIds: readonly string[]): string | undefined;
}

/**
 * Builds absolute links below one base URL, each carrying the content version of what it points
 * at when known: an article's or a shop's resources their shop's version, a search its
 * `businessShopId` shops' (every shop without one), anything else every shop's (`linkScope`).
 * One per reply: it keeps the href of each path linked without query parameters.
 */
export class LinkBuilder {
  readonly #base: string;
  readonly #versions: ContentVersionsByShop | string | undefined;
  /** The href of each path linked without query parameters (a page links each shop several times). */
  readonly #plain = new Map<string, string>();
  /** The version of each shop's content asked for (`articleLink`). */
  readonly #shopVersions = new Map<string, string | undefined>();

  /**
   * `base`: scheme and authority, e.g. `http://127.0.0.1:8081`; `versions`: the content versions
   * (or one version for every link).
   */
  constructor(base: string, versions: ContentVersionsByShop | string | undefined) {
    this.#base = base.replace(/\/+$/, '');
    this.#versions = versions;
  }

  /**
   * `link(rel, articlePath(id))`, without matching the path again: an article's link carries
   * its shop's version, the shop being the id's part before `:` (what `linkScope` reads back
   * from the path; `articlePath('')` is no article's path and carries every shop's version).
   */
  articleLink(rel: string, id: string): Link {
    const path = articlePath(id);
    let href = this.#plain.get(path);
    if (href === undefined) {
      const hash = id === '' ? this.#versionOf([]) : this.#shopVersion(id.split(':')[0]!);
      href = `${this.#base}${path}${hash === undefined ? '' : `?hash=${formEncode(hash)}`}`;
      this.#plain.set(path, href);
    }
    return { href, mediaType: CONTENT_MEDIA_TYPE, method: 'GET', rel };
  }

  /** The version of one shop's content, asked once per shop. */
  #shopVersion(shopId: string): string | undefined {
    if (this.#shopVersions.has(shopId)) return this.#shopVersions.get(shopId);
    const hash = this.#versionOf([shopId]);
    this.#shopVersions.set(shopId, hash);
    return hash;
  }

  #versionOf(scope: string[]): string | undefined {
    return typeof this.#versions === 'object' ? this.#versions.versionOf(scope) : this.#versions;
  }

  /** A GET link to `path` with `query` (arrays repeat the key) plus `hash`. */
  link(
    rel: string,
    path: string,
    query: Readonly<Record<string, string | number | readonly string[] | undefined>> = {},
  ): Link {
    const plain = Object.keys(query).length === 0;
    const kept = plain ? this.#plain.get(path) : undefined;
    if (kept !== undefined) return { href: kept, mediaType: CONTENT_MEDIA_TYPE, method: 'GET', rel };
    const hash = typeof this.#versions === 'object' ? this.#versions.versionOf(linkScope(path, query)) : this.#versions;
    let search: string;
    if (plain) {
      // Most links (a hit's three, per hit): only the version, encoded as URLSearchParams would.
      search = hash === undefined ? '' : `hash=${formEncode(hash)}`;
    } else {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) {
        if (value === undefined) continue;
        if (typeof value === 'object') for (const v of value) params.append(key, v);
        else params.append(key, String(value));
      }
      if (hash !== undefined) params.set('hash', hash);
      search = params.toString();
    }
    const href = `${this.#base}${path}${search ? `?${search}` : ''}`;
    if (plain) this.#plain.set(path, href);
    return {
      href,
      mediaType: CONTENT_MEDIA_TYPE,
      method: 'GET',
      rel,
    };
  }

  /** The same link under several relation names (the spec names some relations two ways). */
  links(
    rels: readonly string[],
    path: string,
    query?: Readonly<Record<string, string | number | readonly string[] | undefined>>,
  ): Link[] {
    return rels.map((rel) => this.link(rel, path, query));
  }
}

/**
 * The shops whose content a request to `path` with `query` shows, for its content version: an
 * article's shop (the id's part before `:`), a business shop and its sub-resources, a search's
 * `businessShopId` values; empty (every shop) for anything else.
 */
export function linkScope(
  path: string,
  query: Readonly<Record<string, string | number | readonly string[] | undefined>> = {},
): string[] {
  const article = /^\/api\/articles\/([^/]+)$/.exec(path);
  if (article) return [safeDecode(article[1]!).split(':')[0]!];
  const shop = /^\/api\/(?:business-shops|bshops)\/([^/]+)(?:\/[^/]+)?$/.exec(path);
  if (shop) return [safeDecode(shop[1]!)];
  if (path === '/api/articles') {
    const ids = query.businessShopId;
    return ids === undefined ? [] : typeof ids === 'object' ? [...ids] : [String(ids)];
  }
  return [];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `text` encoded as `URLSearchParams` encodes a name or value (application/x-www-form-urlencoded:
 * UTF-8, every byte but ASCII letters, digits and `*-._` as `%XX`, a space as `+`), so that
 * `formEncode(a) + formEncode(b)` is the encoding of `a + b`. `text` must be well formed (no lone
 * surrogate), as `JSON.stringify` output is.
 */
export function formEncode(text: string): string {
  return encodeURIComponent(text).replace(FORM_EXTRA, (c) => (c === '%20' ? '+' : FORM_ESCAPES[c]!));
}

/** What `encodeURIComponent` leaves but the form encoding escapes, and its space. */
const FORM_EXTRA = /%20|[!'()~]/g;
const FORM_ESCAPES: Readonly<Record<string, string>> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E' };

/** Path of an article's detail resource. */
export function articlePath(id: string): string {
  return `/api/articles/${encodeURIComponent(id)}`;
}

/** Path of a business shop resource, or one of its sub-resources. */
export function shopPath(id: string, sub?: 'return-policy' | 'shipping-costs' | 'minimum-order-value'): string {
  return `/api/business-shops/${encodeURIComponent(id)}${sub ? `/${sub}` : ''}`;
}
