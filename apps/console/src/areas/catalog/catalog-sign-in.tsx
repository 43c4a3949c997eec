import { useEffect, useState } from 'preact/hooks';
import { usePageTitle } from '../../shell/page-title.js';
import { SignInForm } from '../../shell/sign-in-form.js';
import { fetchDemoClient, type DemoClient } from './demo-client.js';

export interface CatalogSignInProps {
  /** Why the user must sign in again (an expired token), if so. */
  readonly notice: string | undefined;
  readonly onSubmit: (clientId: string, clientSecret: string) => Promise<void>;
}

/**
 * The catalog's sign-in: an OAuth client id and secret. On a local demo run the fields come
 * filled in with the demo client, and the page says so.
 */
export function CatalogSignIn({ notice, onSubmit }: CatalogSignInProps) {
  usePageTitle('Sign in · Catalog');
  const [demo, setDemo] = useState<DemoClient | undefined | 'asking'>('asking');
  useEffect(() => {
    void fetchDemoClient().then(setDemo);
  }, []);
  if (demo === 'asking') return <p aria-live="polite">Loading…</p>;
  return (
    <>
      {notice ? (
        <p role="alert" class="error">
          {notice}
        </p>
      ) : null}
      <SignInForm
        heading="Sign in to the catalog"
        nameLabel="Client ID"
        secretLabel="Client secret"
        initialName={demo?.clientId}
        initialSecret={demo?.clientSecret}
        onSubmit={onSubmit}
      />
      <p class="hint">
        {demo
          ? 'This is a local demo run: its OAuth client is filled in.'
          : 'Use an OAuth client of the content API (npm start prints one).'}
      </p>
    </>
  );
}
