import {
  errors as joseErrors,
  jwtVerify,
  type CompactJWSHeaderParameters,
  type FlattenedJWSInput,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { contentProblems } from '../errors.js';
import { VerifiedTokens } from './verified-tokens.js';

/** Who called: the verified token's subject and scopes. */
export interface Caller {
  readonly subject: string;
  readonly scopes: readonly string[];
}

export interface TokenVerifierOptions {
  /** Resolves the verification key from the token header (`createLocalJWKSet`, `createRemoteJWKSet`). */
  readonly keys: JWTVerifyGetKey;
  readonly issuer: string;
  readonly audience: string;
  /** Clock for expiry checks, seconds since the epoch; default now. */
  readonly now?: () => number;
  /**
   * Where verified tokens are kept between calls (default: 10,000 tokens, each for at most 60 s
   * and never past its `exp`); `false` verifies every call.
   */
  readonly verified?: VerifiedTokens<Caller> | false;
}

/** Verifies `Authorization` header values. */
export type TokenVerifier = (authorization: string | undefined) => Promise<Caller>;

const ALGORITHMS = ['ES256', 'RS256', 'PS256', 'EdDSA'];

/**
 * Builds the bearer-token check of every call: the header must be `Bearer <JWT>`, the JWT signed
 * by a key of `keys` with an asymmetric algorithm, with an `exp` claim not yet passed, with the
 * configured `iss` and `aud`. A token without `exp` would be valid forever, so it is refused.
 * Which scopes a call needs is the access policy's to decide (`policies/access-policy.ts`).
 * A token verified before is taken from `verified` without checking its signature again, as long
 * as it has not expired and its key still resolves to the key that verified it (a key removed
 * from the key source, or replaced, makes the next call verify the token again).
 *
 * @throws ProblemError 401 `CONTENT_ERR_UNAUTHORIZED` (missing, malformed, bad signature, expired,
 *   without `exp`, wrong issuer or audience).
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const verified = options.verified === false ? undefined : (options.verified ?? new VerifiedTokens<Caller>());
  const clock = options.now ?? (() => Date.now() / 1000);
  return async (authorization) => {
    const match = /^Bearer[ \t]+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)[ \t]*$/i.exec(authorization ?? '');
    if (!match) {
      throw contentProblems.create(
        'CONTENT_ERR_UNAUTHORIZED',
        authorization ? 'The Authorization header is not "Bearer <JWT>"' : 'The Authorization header is missing',
      );
    }
    const jwt = match[1] as string;
    // Whole seconds, as jose compares `exp`.
    const now = Math.floor(clock());
    const cacheKey = verified ? VerifiedTokens.keyOf(jwt) : '';
    const known = verified?.get(cacheKey, now);
    if (known) {
      let key: unknown;
      try {
        key = await options.keys(known.header, known.input);
      } catch {
        key = undefined;
      }
      if (key === known.key) return known.caller;
      verified?.delete(cacheKey);
    }
    let payload: JWTPayload;
    let resolved: { header: CompactJWSHeaderParameters; input: FlattenedJWSInput; key: unknown } | undefined;
    try {
      ({ payload } = await jwtVerify(
        jwt,
        async (header, input) => {
          const key = await options.keys(header, input);
          resolved = { header, input, key };
          return key;
        },
        {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ALGORITHMS,
          requiredClaims: ['exp'],
          ...(options.now ? { currentDate: new Date(options.now() * 1000) } : {}),
        },
      ));
    } catch (error) {
      throw contentProblems.create('CONTENT_ERR_UNAUTHORIZED', describe(error), undefined, { cause: error });
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    const caller: Caller = Object.freeze({ subject: payload.sub ?? '', scopes: Object.freeze(scopes) });
    if (verified && resolved && typeof payload.exp === 'number')
      verified.set(cacheKey, { caller, exp: payload.exp, ...resolved }, now);
    return caller;
  };
}

function describe(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.reason === 'missing')
    return `The token has no ${error.claim} claim`;
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `The token's ${error.claim} claim is not accepted`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The token signature is not valid';
  if (error instanceof joseErrors.JWKSNoMatchingKey) return 'No known key signed the token';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'The token algorithm is not accepted';
  return 'The token is malformed';
}
