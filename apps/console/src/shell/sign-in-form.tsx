import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { errorMessage } from './error-alert.js';

export interface SignInFormProps {
  readonly heading: string;
  /** The heading's level: 1 when the form is the page, 2 when it is a part of one. */
  readonly headingLevel?: 1 | 2;
  /** A sentence under the heading: what signing in is for. */
  readonly intro?: ComponentChildren;
  /** Why the form is shown again (the service no longer took the token), as an alert. */
  readonly notice?: string;
  /** Labels of the two fields, e.g. "Username" and "Password", or "Client ID" and "Client secret". */
  readonly nameLabel: string;
  readonly secretLabel: string;
  /** The button's text; "Sign in" unless said otherwise. */
  readonly submitLabel?: string;
  /**
   * `account` (the default) lets the browser offer and save the credentials (`username`,
   * `current-password`); `client` is for a client id and secret the browser should not keep.
   */
  readonly credentials?: 'account' | 'client';
  /** Resolves when signed in; rejects with the message to show. */
  readonly onSubmit: (name: string, secret: string) => Promise<void>;
  /** Values the fields start with (the catalog's demo client); read at the first render only. */
  readonly initialName?: string;
  readonly initialSecret?: string;
  /** The form's class; `sign-in` unless said otherwise. */
  readonly class?: string;
}

/**
 * The sign-in form every area shares: a heading, two labelled fields, a submit button, and an
 * error alert with the message `onSubmit` rejected with. The button is disabled while signing in.
 */
export function SignInForm(props: SignInFormProps) {
  const [name, setName] = useState(props.initialName ?? '');
  const [secret, setSecret] = useState(props.initialSecret ?? '');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const account = (props.credentials ?? 'account') === 'account';
  const Heading = props.headingLevel === 2 ? 'h2' : 'h1';
  const submit = (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    props.onSubmit(name, secret).catch((reason: unknown) => {
      setError(errorMessage(reason));
      setBusy(false);
    });
  };
  return (
    <form class={props.class ?? 'sign-in'} onSubmit={submit} aria-labelledby={headingId}>
      <Heading id={headingId}>{props.heading}</Heading>
      {props.intro ? <p>{props.intro}</p> : null}
      {props.notice ? (
        <p role="alert" class="error">
          {props.notice}
        </p>
      ) : null}
      <label>
        {props.nameLabel}
        <input
          name={account ? 'username' : 'client-id'}
          autocomplete={account ? 'username' : 'off'}
          required
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <label>
        {props.secretLabel}
        <input
          name={account ? 'password' : 'client-secret'}
          type="password"
          autocomplete={account ? 'current-password' : 'off'}
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
      <button type="submit" class="primary" disabled={busy}>
        {props.submitLabel ?? 'Sign in'}
      </button>
    </form>
  );
}
