import { CONTENT_MEDIA_TYPE } from '../http/media-types.js';

/** A hypermedia link as the wire carries it (`_schema.links[]`). */
export interface Link {
  readonly href: string;
  readonly mediaType: string;
  readonly method: 'GET';
  readonly rel: string;
}

/** Builds absolute links below one base URL, each carrying the content version when known. */
export class LinkBuilder {
  readonly #base: string;
  readonly #hash: string | undefined;

  /** `base`: scheme and authority, e.g. `http://127.0.0.1:8081`; `hash`: current content version. */
  constructor(base: string, hash: string | undefined) {
    this.#base = base.replace(/\/+$/, '');
    this.#hash = hash;
  }

  /** A GET link to `path` with `query` (arrays repeat the key) plus `hash`. */
  link(
    rel: string,
    path: string,
    query: Readonly<Record<string, string | number | readonly string[] | undefined>> = {},
  ): Link {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (typeof value === 'object') for (const v of value) params.append(key, v);
      else params.append(key, String(value));
    }
    if (this.#hash !== undefined) params.set('hash', this.#hash);
    const search = params.toString();
    return {
      href: `${this.#base}${path}${search ? `?${search}` : ''}`,
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

/** Path of an article's detail resource. */
export function articlePath(id: string): string {
  return `/api/articles/${encodeURIComponent(id)}`;
}

/** Path of a business shop resource, or one of its sub-resources. */
export function shopPath(id: string, sub?: 'return-policy' | 'shipping-costs' | 'minimum-order-value'): string {
  return `/api/business-shops/${encodeURIComponent(id)}${sub ? `/${sub}` : ''}`;
}
