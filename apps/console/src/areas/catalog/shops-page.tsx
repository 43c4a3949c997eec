import { useEffect, useState } from 'preact/hooks';
import { Link } from '../../shell/link.js';
import { usePageTitle } from '../../shell/page-title.js';
import { AddShopForm } from './add-shop-form.js';
import { AdminSignIn } from './admin-sign-in.js';
import type { CatalogClient } from './catalog-client.js';
import { searchPath } from './catalog-route.js';
import { EMPTY_SEARCH } from './catalog-search.js';
import type { ShopWithPolicies } from './catalog-wire.js';
import { formatMoney, formatPercent } from './format-money.js';
import { RecentImports } from './recent-imports.js';
import { RemoteFailure } from './remote-failure.js';
import { useRemote } from './use-remote.js';

export interface ShopsPageProps {
  readonly client: CatalogClient;
  /** The shop to scroll to once the list is there (`/shops?shop=<id>`). */
  readonly shop: string | undefined;
  readonly onError: (error: Error) => void;
  /** Called after a shop was added, so the rest of the area sees it. */
  readonly onShopsChanged: () => void;
}

/**
 * Every shop with its return policy, shipping costs and minimum order value; with the admin client
 * (its token kept in memory only) each shop's recent imports, and adding a shop.
 */
export function ShopsPage({ client, shop, onError, onShopsChanged }: ShopsPageProps) {
  usePageTitle('Shops');
  const [version, setVersion] = useState(0);
  const [adminToken, setAdminToken] = useState<string | undefined>();
  const [adminNotice, setAdminNotice] = useState<string | undefined>();
  const onAdminRefused = () => {
    setAdminToken(undefined);
    setAdminNotice('The admin session has ended. Sign in again.');
  };
  const shops = useRemote(
    `shops-${version}`,
    async (signal) => Promise.all((await client.shops(signal)).map((shop) => client.policies(shop, signal))),
    onError,
  );
  const ready = shops.state === 'ready';
  useEffect(() => {
    if (ready && shop !== undefined) document.getElementById(`shop-${shop}`)?.scrollIntoView();
  }, [ready, shop]);
  return (
    <>
      <h1>Shops</h1>
      {adminToken === undefined ? (
        <AdminSignIn
          notice={adminNotice}
          onToken={(token) => {
            setAdminNotice(undefined);
            setAdminToken(token);
          }}
        />
      ) : null}
      {shops.state === 'loading' ? <p aria-live="polite">Loading the shops…</p> : null}
      <RemoteFailure remote={shops} />
      {shops.state === 'ready' ? (
        <ul class="shops">
          {shops.value.map((entry) => (
            <ShopEntry key={entry.shop.id} entry={entry} adminToken={adminToken} onAdminRefused={onAdminRefused} />
          ))}
        </ul>
      ) : null}
      {adminToken !== undefined ? (
        <AddShopForm
          adminToken={adminToken}
          onAdminRefused={onAdminRefused}
          onAdded={() => {
            setVersion((v) => v + 1);
            onShopsChanged();
          }}
        />
      ) : null}
    </>
  );
}

interface ShopEntryProps {
  readonly entry: ShopWithPolicies;
  /** With an admin token the entry shows the shop's recent imports. */
  readonly adminToken: string | undefined;
  readonly onAdminRefused: () => void;
}

function ShopEntry({ entry, adminToken, onAdminRefused }: ShopEntryProps) {
  const { shop, returnPolicy, shippingCosts, minimumOrderValue } = entry;
  const headingId = `shop-${shop.id}`;
  return (
    <li class="shop" id={headingId} aria-labelledby={`${headingId}-name`}>
      <h2 id={`${headingId}-name`}>{shop.name}</h2>
      <dl class="fields">
        <dt>Id</dt>
        <dd>{shop.id}</dd>
        <dt>Currency</dt>
        <dd>{shop.currency}</dd>
        <dt>Returns</dt>
        <dd>
          {returnPolicy.returnsAccepted
            ? `within ${returnPolicy.returnPeriodDays} days, ` +
              `restocking fee ${formatPercent(returnPolicy.restockingFee)}`
            : 'not accepted'}
          {returnPolicy.conditions.map((c) => (
            <span key={c.lang} lang={c.lang} class="condition">
              {c.value}
            </span>
          ))}
        </dd>
        <dt>Shipping</dt>
        <dd>
          {formatMoney(shippingCosts.standard)} per order
          {shippingCosts.freeShippingFrom
            ? `, free from ${formatMoney(shippingCosts.freeShippingFrom)}`
            : ', never free'}
          {shippingCosts.countries.length > 0 ? ` (to ${shippingCosts.countries.join(', ')})` : ''}
        </dd>
        {/* A minimum of 0 is no minimum: nothing to say. */}
        {minimumOrderValue.minimumOrderValue.amount.value > 0 ? (
          <>
            <dt>Minimum order</dt>
            <dd>
              {formatMoney(minimumOrderValue.minimumOrderValue)}
              {minimumOrderValue.surchargeBelow
                ? `; smaller orders pay ${formatMoney(minimumOrderValue.surchargeBelow)} extra`
                : '; smaller orders are refused'}
            </dd>
          </>
        ) : null}
      </dl>
      <p>
        <Link href={searchPath({ ...EMPTY_SEARCH, businessShopId: [shop.id] })}>Articles of {shop.name}</Link>
      </p>
      {adminToken !== undefined ? (
        <RecentImports adminToken={adminToken} shopId={shop.id} shopName={shop.name} onAdminRefused={onAdminRefused} />
      ) : null}
    </li>
  );
}
