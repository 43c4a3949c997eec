import { HttpError } from '../../shell/http-error.js';
import { searchFailureMessage } from './catalog-messages.js';
import type { Remote } from './use-remote.js';

/** The alert of a failed load, in people's words (`searchFailureMessage`); nothing while loading or once loaded. */
export function RemoteFailure({ remote }: { readonly remote: Remote<unknown> }) {
  if (remote.state !== 'failed') return null;
  return (
    <p role="alert" class="error">
      {remote.error instanceof HttpError
        ? searchFailureMessage(remote.error.status, remote.error.message)
        : remote.error.message}
    </p>
  );
}
