import { useEffect, useState } from 'preact/hooks';
import { Link } from '../../shell/link.js';
import { usePageTitle } from '../../shell/page-title.js';
import { AddShopForm } from './add-shop-form.js';
import type { CatalogClient } from './catalog-client.js';
import { searchPath } from './catalog-route.js';
import { EMPTY_SEARCH } from './catalog-search.js';
import type { ShopWithPolicies } from './catalog-wire.js';
import { formatMoney, formatPercent } from './format-money.js';
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

/** Every shop with its return policy, shipping costs and minimum order value; adding a shop with an admin client. */
export function ShopsPage({ client, shop, onError, onShopsChanged }: ShopsPageProps) {
  usePageTitle('Shops');
  const [version, setVersion] = useState(0);
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
      {shops.state === 'loading' ? <p aria-live="polite">Loading the shops…</p> : null}
      <RemoteFailure remote={shops} />
      {shops.state === 'ready' ? (
        <ul class="shops">
          {shops.value.map((entry) => (
            <ShopEntry key={entry.shop.id} entry={entry} />
          ))}
        </ul>
      ) : null}
      <AddShopForm
        onAdded={() => {
          setVersion((v) => v + 1);
          onShopsChanged();
        }}
      />
    </>
  );
}

function ShopEntry({ entry }: { readonly entry: ShopWithPolicies }) {
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
        <dt>Minimum order</dt>
        <dd>
          {formatMoney(minimumOrderValue.minimumOrderValue)}
          {minimumOrderValue.surchargeBelow
            ? `; smaller orders pay ${formatMoney(minimumOrderValue.surchargeBelow)} extra`
            : '; smaller orders are refused'}
        </dd>
      </dl>
      <p>
        <Link href={searchPath({ ...EMPTY_SEARCH, businessShopId: [shop.id] })}>Articles of {shop.name}</Link>
      </p>
    </li>
  );
}
