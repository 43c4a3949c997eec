import type { Caller, TokenVerifier } from '../auth/token-verifier.js';
import { contentProblems } from '../errors.js';

/** What a call reaches: the content API (`/api/...`, the entry point) or the admin API (`/admin/...`). */
export type ContentArea = 'content' | 'admin';

export interface AccessPolicyOptions {
  /** Verifies the bearer token of every call (`createTokenVerifier`). */
  readonly verifyToken: TokenVerifier;
  /** Scope every content call needs (`TRIAD_CONTENT_REQUIRED_SCOPE`). */
  readonly requiredScope: string;
  /** Scope the admin API needs (`TRIAD_CONTENT_ADMIN_SCOPE`); differs from `requiredScope`. */
  readonly adminScope: string;
}

/**
 * Who may do what with the content API: every call needs a verified bearer token (`auth/`); a
 * content call a token with the required scope, a call of the admin API one with the admin scope.
 */
export class AccessPolicy {
  readonly #options: AccessPolicyOptions;

  constructor(options: AccessPolicyOptions) {
    this.#options = options;
  }

  /** The scope a call of `area` needs. */
  scopeFor(area: ContentArea): string {
    return area === 'admin' ? this.#options.adminScope : this.#options.requiredScope;
  }

  /**
   * The caller of a call of `area` with this `Authorization` header value, when it may make it.
   *
   * @throws ProblemError 401 `CONTENT_ERR_UNAUTHORIZED` (no valid token, see `createTokenVerifier`)
   *   or 403 `CONTENT_ERR_FORBIDDEN` (a valid token without the area's scope).
   */
  async require(authorization: string | undefined, area: ContentArea): Promise<Caller> {
    const caller = await this.#options.verifyToken(authorization);
    authorizeScope(caller, this.scopeFor(area));
    return caller;
  }
}

/** @throws ProblemError 403 `CONTENT_ERR_FORBIDDEN` unless the caller's token has `scope`. */
export function authorizeScope(caller: Caller, scope: string): void {
  if (!caller.scopes.includes(scope))
    throw contentProblems.create('CONTENT_ERR_FORBIDDEN', `The token lacks the scope ${scope}`);
}
