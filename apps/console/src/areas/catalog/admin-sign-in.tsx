import { useState } from 'preact/hooks';
import { requestToken, withDetails } from './catalog-client.js';

export interface AdminSignInProps {
  /** Called with the admin token; the caller keeps it in memory only. */
  readonly onToken: (token: string) => void;
  /** Why the form is shown again (the service no longer took the token), if it is. */
  readonly notice: string | undefined;
}

/**
 * Asks for the admin client (printed by `npm start`; never filled in) to add shops and read
 * their recent imports.
 */
export function AdminSignIn({ onToken, notice }: AdminSignInProps) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="admin-sign-in"
      aria-labelledby="admin-sign-in-heading"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const text = (name: string) => {
          const value = data.get(name);
          return typeof value === 'string' ? value.trim() : '';
        };
        setBusy(true);
        setError(undefined);
        requestToken(text('adminId'), text('adminSecret'))
          .then(onToken, (reason: unknown) => {
            const failure = withDetails(reason);
            setError(failure instanceof Error ? failure.message : String(failure));
          })
          .finally(() => setBusy(false));
      }}
    >
      <h2 id="admin-sign-in-heading">Manage shops</h2>
      <p>Adding shops and reading their recent imports needs the admin client (npm start prints it).</p>
      {notice ? (
        <p role="alert" class="error">
          {notice}
        </p>
      ) : null}
      <label>
        Admin client ID
        <input name="adminId" required autocomplete="off" />
      </label>
      <label>
        Admin client secret
        <input name="adminSecret" type="password" required autocomplete="off" />
      </label>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        Sign in as admin
      </button>
    </form>
  );
}
