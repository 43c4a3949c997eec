import { SignInForm } from '../../shell/sign-in-form.js';
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
  return (
    <SignInForm
      class="admin-sign-in"
      heading="Manage shops"
      headingLevel={2}
      intro="Adding shops and reading their recent imports needs the admin client (npm start prints it)."
      notice={notice}
      nameLabel="Admin client ID"
      secretLabel="Admin client secret"
      submitLabel="Sign in as admin"
      credentials="client"
      onSubmit={async (id, secret) => {
        try {
          onToken(await requestToken(id.trim(), secret.trim()));
        } catch (reason) {
          throw withDetails(reason);
        }
      }}
    />
  );
}
