import { HttpError, requestJson } from '../../shell/http-error.js';
import { writeCatalogSearch, type CatalogSearch } from './catalog-search.js';
import {
  linkOf,
  type ArticleDetail,
  type ImportRunList,
  type MinimumOrderValue,
  type NewShop,
  type ReturnPolicy,
  type SearchReply,
  type Shop,
  type ShippingCosts,
  type ShopList,
  type ShopWithPolicies,
  type SuggestReply,
} from './catalog-wire.js';

/** The media type every `/api` call must accept, exactly. */
export const CONTENT_MEDIA_TYPE = 'application/vnd.vendor.content.v1+json';

/** The `X-svc-requisitioner-id` the console sends: the end user is whoever uses this browser. */
export const CONSOLE_REQUISITIONER = 'console';

/**
 * Asks `/oauth/token` for a token with the client credentials grant; resolves the access token,
 * kept in memory only by the caller. Rejects with HttpError carrying the OAuth
 * `error_description` (401 for an unknown client or a wrong secret).
 */
export async function requestToken(clientId: string, clientSecret: string): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  try {
    const reply = await requestJson<{ access_token: string }>('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    return reply.access_token;
  } catch (error) {
    throw withDetails(error);
  }
}

/**
 * The content API's read side as the catalog area uses it: same origin, every `/api` call with
 * the token, the media type and the console's requisitioner id, never from the browser's cache.
 * Every method rejects with HttpError on a reply that is not a success (401: the token is no
 * longer good).
 */
export class CatalogClient {
  readonly #token: string;

  constructor(accessToken: string) {
    this.#token = accessToken;
  }

  /**
   * `GET /api/articles` with the search's parameters, and with `highlight=true` when there is
   * text: hits then carry the matched spans (`HighlightedHit`; servers that do not highlight
   * ignore the parameter).
   */
  search(search: CatalogSearch, signal?: AbortSignal): Promise<SearchReply> {
    const params = writeCatalogSearch(search);
    if (search.q.trim() !== '') params.set('highlight', 'true');
    const query = params.toString();
    return this.#get<SearchReply>(`/api/articles${query === '' ? '' : `?${query}`}`, signal);
  }

  /** `GET /api/suggest`: completions and corrections of the last word of `q` in these shops' words (all: none). */
  suggest(q: string, shopIds: readonly string[], signal?: AbortSignal): Promise<SuggestReply> {
    const params = new URLSearchParams({ q });
    for (const id of shopIds) params.append('businessShopId', id);
    return this.#get<SuggestReply>(`/api/suggest?${params.toString()}`, signal);
  }

  /** `GET /api/articles/{id}`; 404 when no article has that id. */
  article(id: string, signal?: AbortSignal): Promise<ArticleDetail> {
    return this.#get<ArticleDetail>(`/api/articles/${encodeURIComponent(id)}`, signal);
  }

  /** Every shop (pages of 100). */
  async shops(signal?: AbortSignal): Promise<Shop[]> {
    const shops: Shop[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await this.#get<ShopList>(`/api/business-shops?limit=100&offset=${offset}`, signal);
      shops.push(...page.members);
      if (page.members.length === 0 || shops.length >= page.total) return shops;
    }
  }

  /** A shop with its return policy, shipping costs and minimum order value, read through its links. */
  async policies(shop: Shop, signal?: AbortSignal): Promise<ShopWithPolicies> {
    const follow = <T>(rel: string): Promise<T> => {
      const href = linkOf(shop, rel);
      if (href === undefined) return Promise.reject(new Error(`shop ${shop.id} has no ${rel} link`));
      return this.#get<T>(pathOf(href), signal);
    };
    const [returnPolicy, shippingCosts, minimumOrderValue] = await Promise.all([
      follow<ReturnPolicy>('return-policy'),
      follow<ShippingCosts>('shipping-costs'),
      follow<MinimumOrderValue>('minimum-order-value'),
    ]);
    return { shop, returnPolicy, shippingCosts, minimumOrderValue };
  }

  #get<T>(path: string, signal?: AbortSignal): Promise<T> {
    const headers = {
      authorization: `Bearer ${this.#token}`,
      accept: CONTENT_MEDIA_TYPE,
      'x-svc-requisitioner-id': CONSOLE_REQUISITIONER,
    };
    // The API lets replies be cached for 5 minutes; a console shows what is there now (a shop
    // just added, a catalog just imported), so the browser asks again every time.
    return requestJson<T>(path, { headers, cache: 'no-cache', ...(signal ? { signal } : {}) });
  }
}

/**
 * `POST /admin/business-shops` with an admin token. Rejects with HttpError: 409 when the id is
 * taken, 422 with every violation and its JSON pointer in the message.
 */
export async function addShop(adminToken: string, shop: NewShop): Promise<void> {
  try {
    await requestJson('/admin/business-shops', {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(shop),
    });
  } catch (error) {
    throw withDetails(error);
  }
}

/**
 * `GET /admin/business-shops/{shopId}/imports` with an admin token: the shop's recorded catalog
 * imports, newest first. Rejects with HttpError (401 or 403: the admin token is not good).
 */
export async function importRuns(adminToken: string, shopId: string, signal?: AbortSignal): Promise<ImportRunList> {
  return requestJson<ImportRunList>(`/admin/business-shops/${encodeURIComponent(shopId)}/imports`, {
    headers: { authorization: `Bearer ${adminToken}` },
    cache: 'no-cache',
    ...(signal ? { signal } : {}),
  });
}

/** The path and query of an API link (links are absolute; the page calls its own origin). */
export function pathOf(href: string): string {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
}

/**
 * An HttpError whose message also says what the body adds: the OAuth `error_description`, and a
 * 422's violations (`/id: must match ...`). Anything else is returned as it is.
 */
export function withDetails(error: unknown): unknown {
  if (!(error instanceof HttpError) || typeof error.body !== 'object' || error.body === null) return error;
  const body = error.body as Readonly<Record<string, unknown>>;
  const description = typeof body.error_description === 'string' ? body.error_description : undefined;
  const violations = Array.isArray(body.errors)
    ? body.errors.flatMap((item: unknown) => {
        const { pointer, message } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
        return typeof message === 'string' ? [`${typeof pointer === 'string' ? `${pointer}: ` : ''}${message}`] : [];
      })
    : [];
  const message = [description ?? error.message, ...violations].join('; ');
  return message === error.message ? error : new HttpError(error.status, message, error.body);
}
