import './catalog-area.css';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { Link } from '../../shell/link.js';
import type { AreaProps } from '../../shell/area-props.js';
import { usePageTitle } from '../../shell/page-title.js';
import { ArticlePage } from './article-page.js';
import { HttpError } from '../../shell/http-error.js';
import { CatalogClient, requestToken } from './catalog-client.js';
import { catalogRoute } from './catalog-route.js';
import type { Shop } from './catalog-wire.js';
import { CatalogSignIn } from './catalog-sign-in.js';
import { SearchPage } from './search-page.js';
import { ShopsPage } from './shops-page.js';
import { isText, sessionKeep } from '../../shell/session-keep.js';

/**
 * The catalog area (content API): sign in with an OAuth client, then search, read articles and
 * manage shops. The access token (never the client secret) is kept for the browser session
 * (`sessionStorage`): the other services' consoles and a reload keep the sign-in; an expired token
 * or "Sign out" forgets it.
 */
export default function CatalogArea({ path, navigate }: AreaProps) {
  const [client, setClientState] = useState<CatalogClient | undefined>(() => {
    const token = KEPT_TOKEN.read();
    return token === undefined ? undefined : new CatalogClient(token);
  });
  const setClient = useCallback((next: CatalogClient | undefined) => {
    if (next === undefined) KEPT_TOKEN.clear();
    setClientState(next);
  }, []);
  const [notice, setNotice] = useState<string | undefined>();
  const [shops, setShops] = useState<readonly Shop[]>([]);
  const [shopsVersion, setShopsVersion] = useState(0);
  const onError = useCallback(
    (error: Error) => {
      if (error instanceof HttpError && error.status === 401) {
        setClient(undefined);
        setNotice('Your session has ended. Sign in again.');
      }
    },
    [setClient],
  );
  useEffect(() => {
    if (!client) return;
    const controller = new AbortController();
    client.shops(controller.signal).then(setShops, (error: unknown) => {
      if (error instanceof Error && !controller.signal.aborted) onError(error);
    });
    return () => controller.abort();
  }, [client, shopsVersion, onError]);

  if (!client) {
    return (
      <CatalogSignIn
        notice={notice}
        onSubmit={async (clientId, secret) => {
          const token = await requestToken(clientId, secret);
          setNotice(undefined);
          KEPT_TOKEN.write(token);
          setClient(new CatalogClient(token));
        }}
      />
    );
  }
  const route = catalogRoute(path);
  const shopNames = new Map(shops.map((shop) => [shop.id, shop.name]));
  return (
    <>
      <nav class="subnav" aria-label="Catalog">
        <ul>
          <li>
            <Link href="/" current={route.page === 'search'}>
              Search
            </Link>
          </li>
          <li>
            <Link href="/shops" current={route.page === 'shops'}>
              Shops
            </Link>
          </li>
          <li>
            <button type="button" onClick={() => setClient(undefined)}>
              Sign out
            </button>
          </li>
        </ul>
      </nav>
      {route.page === 'search' ? (
        <SearchPage client={client} search={route.search} shops={shops} navigate={navigate} onError={onError} />
      ) : route.page === 'article' ? (
        <ArticlePage client={client} id={route.id} shopNames={shopNames} onError={onError} />
      ) : route.page === 'shops' ? (
        <ShopsPage
          client={client}
          shop={route.shop}
          onError={onError}
          onShopsChanged={() => setShopsVersion((v) => v + 1)}
        />
      ) : (
        <NotFound path={route.path} />
      )}
    </>
  );
}

/** The access token kept for the browser session. */
const KEPT_TOKEN = sessionKeep('catalog.token', isText);

function NotFound({ path }: { readonly path: string }) {
  usePageTitle('Not found');
  return (
    <>
      <h1>Not found</h1>
      <p>
        The catalog has no page at {path}. <Link href="/">Search the catalog</Link>.
      </p>
    </>
  );
}
