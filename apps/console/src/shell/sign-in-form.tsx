import { useState } from 'preact/hooks';

export interface SignInFormProps {
  readonly heading: string;
  /** Labels of the two fields, e.g. "Username" and "Password", or "Client ID" and "Client secret". */
  readonly nameLabel: string;
  readonly secretLabel: string;
  /** Resolves when signed in; rejects with the message to show. */
  readonly onSubmit: (name: string, secret: string) => Promise<void>;
  /** Values the fields start with (the catalog's demo client); read at the first render only. */
  readonly initialName?: string;
  readonly initialSecret?: string;
}

/** The sign-in form every area shares: two labelled fields, a "Sign in" button, an error alert. */
export function SignInForm(props: SignInFormProps) {
  const [name, setName] = useState(props.initialName ?? '');
  const [secret, setSecret] = useState(props.initialSecret ?? '');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    props.onSubmit(name, secret).catch((reason: unknown) => {
      setError(reason instanceof Error ? reason.message : String(reason));
      setBusy(false);
    });
  };
  return (
    <form class="sign-in" onSubmit={submit} aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">{props.heading}</h1>
      <label>
        {props.nameLabel}
        <input
          name="username"
          autocomplete="username"
          required
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <label>
        {props.secretLabel}
        <input
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
        />
      </label>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}
