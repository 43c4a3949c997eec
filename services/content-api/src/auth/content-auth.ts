import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { ContentApiConfig } from '../config.js';
import {
  createLocalIdentity,
  type LocalIdentity,
  type LocalIdentityOptions,
  type SharedKeyStore,
} from './local-identity.js';

/** Where verification keys come from, plus the built-in identity when it is the source. */
export interface ContentAuth {
  readonly keys: JWTVerifyGetKey;
  /** Present when tokens come from the built-in `POST /oauth/token`. */
  readonly identity?: LocalIdentity;
  /** Human-readable key source for logs. */
  readonly source: string;
}

/**
 * Chooses the key source: `jwksUrl` (remote, cached by jose), else `jwksFile` (read once), else
 * the built-in identity with a fresh key pair (public keys shared through `keyStore`) and the
 * configured or a generated client.
 *
 * @throws Error when the JWKS file cannot be read or is not a JWKS, or when the admin scope is the
 *   read scope (a read token would then change shops).
 */
export async function createContentAuth(
  config: ContentApiConfig,
  options: {
    /** Shares the built-in identity's public keys with the other instances on the database. */
    readonly keyStore?: SharedKeyStore;
    /** Where a key that cannot be published yet is reported. */
    readonly log?: LocalIdentityOptions['log'];
  } = {},
): Promise<ContentAuth> {
  if (config.adminScope === config.requiredScope)
    throw new Error(
      `TRIAD_CONTENT_ADMIN_SCOPE must differ from TRIAD_CONTENT_REQUIRED_SCOPE (both are ${config.adminScope})`,
    );
  if (config.jwksUrl) return { keys: createRemoteJWKSet(new URL(config.jwksUrl)), source: config.jwksUrl };
  if (config.jwksFile) {
    const parsed = JSON.parse(await readFile(config.jwksFile, 'utf8')) as JSONWebKeySet;
    if (!parsed || !Array.isArray(parsed.keys)) throw new Error(`${config.jwksFile} is not a JWKS (no "keys" array)`);
    return { keys: createLocalJWKSet(parsed), source: config.jwksFile };
  }
  const identity = await createLocalIdentity({
    clientId: config.oauthClientId,
    clientSecret: config.oauthClientSecret,
    issuer: config.tokenIssuer,
    audience: config.tokenAudience,
    lifetimeSeconds: config.tokenLifetimeSeconds,
    scope: config.requiredScope,
    admin: {
      clientId: config.adminClientId,
      clientSecret: config.adminClientSecret,
      // A demo service (`npm start`) gets an admin client to try the admin API with; others only a configured one.
      generate: config.demo,
      scope: config.adminScope,
    },
    ...(options.keyStore ? { keyStore: options.keyStore } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return { keys: identity.keys, identity, source: 'built-in /oauth/token' };
}
