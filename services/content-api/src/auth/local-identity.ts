import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

/** The built-in identity provider of the embedded default: one client, one signing key. */
export interface LocalIdentity {
  readonly clientId: string;
  /** The configured secret, or the generated one (printed at start-up). */
  readonly clientSecret: string;
  /** True when id and secret were generated because none were configured. */
  readonly generated: boolean;
  /** Public keys, as served at `/.well-known/jwks.json`. */
  readonly jwks: JSONWebKeySet;
  /** Key resolver for `createTokenVerifier`. */
  readonly keys: JWTVerifyGetKey;
  /** True when `id`/`secret` are this client's (constant time). */
  checkClient(id: string, secret: string): boolean;
  /** Signs an access token for the client. */
  issueToken(scope: string): Promise<{ readonly accessToken: string; readonly expiresIn: number }>;
}

export interface LocalIdentityOptions {
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  readonly issuer: string;
  readonly audience: string;
  /** Seconds. */
  readonly lifetimeSeconds: number;
}

/**
 * Creates the built-in identity: a fresh ES256 key pair per process (tokens do not survive a
 * restart), the client from config or generated (`triad-<hex>` / 32 random bytes base64url).
 */
export async function createLocalIdentity(options: LocalIdentityOptions): Promise<LocalIdentity> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const kid = randomBytes(8).toString('hex');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const jwks: JSONWebKeySet = { keys: [jwk] };
  const generated = !options.clientId || !options.clientSecret;
  const clientId = options.clientId ?? `triad-${randomBytes(6).toString('hex')}`;
  const clientSecret = options.clientSecret ?? randomBytes(32).toString('base64url');
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const expectedId = digest(clientId);
  const expectedSecret = digest(clientSecret);
  return {
    clientId,
    clientSecret,
    generated,
    jwks,
    keys: createLocalJWKSet(jwks),
    checkClient(id, secret) {
      // Both compared, always, so timing does not tell which one was wrong.
      const idOk = timingSafeEqual(digest(id), expectedId);
      const secretOk = timingSafeEqual(digest(secret), expectedSecret);
      return idOk && secretOk;
    },
    async issueToken(scope) {
      const accessToken = await new SignJWT({ scope })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(clientId)
        .setIssuedAt()
        .setExpirationTime(`${options.lifetimeSeconds}s`)
        .setJti(randomBytes(12).toString('base64url'))
        .sign(privateKey);
      return { accessToken, expiresIn: options.lifetimeSeconds };
    },
  };
}
