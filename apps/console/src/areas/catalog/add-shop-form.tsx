import { useState } from 'preact/hooks';
import { HttpError } from '../../shell/http-error.js';
import { addShop } from './catalog-client.js';
import type { NewShop } from './catalog-wire.js';
import { parseDecimal } from './format-money.js';
import { errorMessage } from '../../shell/error-alert.js';

export interface AddShopFormProps {
  /** A token of the admin client (`AdminSignIn`). */
  readonly adminToken: string;
  /** Called when the service no longer takes the admin token (401 or 403). */
  readonly onAdminRefused: () => void;
  readonly onAdded: () => void;
}

/** Adds a shop through the admin API. */
export function AddShopForm({ adminToken, onAdminRefused, onAdded }: AddShopFormProps) {
  const [message, setMessage] = useState<{ readonly ok: boolean; readonly text: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value.trim() : '';
    };
    const shipping = text('shipping') === '' ? undefined : parseDecimal(text('shipping'));
    const minimum = text('minimum') === '' ? undefined : parseDecimal(text('minimum'));
    if (shipping === undefined && text('shipping') !== '') throw new Error('Shipping costs must be a number');
    if (minimum === undefined && text('minimum') !== '') throw new Error('The minimum order value must be a number');
    const shop: NewShop = {
      id: text('id'),
      name: text('name'),
      currency: text('currency').toUpperCase() || 'EUR',
      ...(shipping ? { shippingCosts: { standard: { amount: shipping } } } : {}),
      ...(minimum ? { minimumOrderValue: { amount: { amount: minimum } } } : {}),
    };
    try {
      await addShop(adminToken, shop);
    } catch (error) {
      // An expired or refused admin token: ask for the client again.
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) onAdminRefused();
      throw error;
    }
    form.reset();
    setMessage({ ok: true, text: `Shop ${shop.id} added.` });
    onAdded();
  };
  return (
    <form
      class="add-shop"
      aria-labelledby="add-shop-heading"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        setMessage(undefined);
        submit(event.currentTarget)
          .catch((error: unknown) => setMessage({ ok: false, text: errorMessage(error) }))
          .finally(() => setBusy(false));
      }}
    >
      <h2 id="add-shop-heading">Add a shop</h2>
      <label>
        Shop id
        <input name="id" required pattern="[A-Za-z0-9._\-]{1,64}" aria-describedby="shop-id-hint" />
      </label>
      <small id="shop-id-hint">Letters, digits, dot, underscore and hyphen; at most 64.</small>
      <label>
        Name
        <input name="name" required maxLength={200} />
      </label>
      <label>
        Currency
        <input name="currency" defaultValue="EUR" pattern="[A-Za-z]{3}" size={3} />
      </label>
      <label>
        Shipping costs per order
        <input name="shipping" inputMode="decimal" />
      </label>
      <label>
        Minimum order value
        <input name="minimum" inputMode="decimal" />
      </label>
      {message ? (
        <p role={message.ok ? 'status' : 'alert'} class={message.ok ? 'ok' : 'error'}>
          {message.text}
        </p>
      ) : null}
      <button type="submit" class="primary" disabled={busy}>
        Add shop
      </button>
    </form>
  );
}
