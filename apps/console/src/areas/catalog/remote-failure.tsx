import type { Remote } from './use-remote.js';

/** The alert of a failed load (the service's own message); nothing while loading or once loaded. */
export function RemoteFailure({ remote }: { readonly remote: Remote<unknown> }) {
  if (remote.state !== 'failed') return null;
  return (
    <p role="alert" class="error">
      {remote.error.message}
    </p>
  );
}
