import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '@triad/service-kit';
import { createTokenVerifier, type TokenVerifier } from './token-verifier.js';

const ISSUER = 'urn:test:issuer';
const AUDIENCE = 'urn:test:content';

describe('createTokenVerifier', () => {
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;
  let verify: TokenVerifier;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('ES256')).privateKey;
    const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] };
    verify = createTokenVerifier({
      keys: createLocalJWKSet(jwks),
      issuer: ISSUER,
      audience: AUDIENCE,
    });
  });

  async function token(
    options: { key?: CryptoKey; iss?: string; aud?: string; exp?: number | null; scope?: string } = {},
  ): Promise<string> {
    const jwt = new SignJWT({ scope: options.scope ?? 'openid content:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(options.iss ?? ISSUER)
      .setAudience(options.aud ?? AUDIENCE)
      .setSubject('client-1');
    if (options.exp !== null) jwt.setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600);
    return jwt.sign(options.key ?? signingKey);
  }

  async function statusOf(header: string | undefined): Promise<{ status: number; detail: string | undefined }> {
    try {
      await verify(header);
      return { status: 200, detail: undefined };
    } catch (error) {
      if (error instanceof ProblemError) return { status: error.status, detail: error.detail };
      throw error;
    }
  }

  it('returns the subject and scopes of a valid token', async () => {
    expect(await verify(`Bearer ${await token()}`)).toEqual({
      subject: 'client-1',
      scopes: ['openid', 'content:read'],
    });
  });

  it('refuses an expired token with 401', async () => {
    expect(await statusOf(`Bearer ${await token({ exp: Math.floor(Date.now() / 1000) - 60 })}`)).toEqual({
      status: 401,
      detail: 'The token has expired',
    });
  });

  it('refuses a token without exp with 401, since it would never expire', async () => {
    expect(await statusOf(`Bearer ${await token({ exp: null })}`)).toEqual({
      status: 401,
      detail: 'The token has no exp claim',
    });
  });

  it('refuses a wrong issuer and a wrong audience with 401 naming the claim', async () => {
    expect(await statusOf(`Bearer ${await token({ iss: 'urn:other' })}`)).toEqual({
      status: 401,
      detail: "The token's iss claim is not accepted",
    });
    expect(await statusOf(`Bearer ${await token({ aud: 'urn:other' })}`)).toEqual({
      status: 401,
      detail: "The token's aud claim is not accepted",
    });
  });

  it('refuses a token signed by another key with 401', async () => {
    expect((await statusOf(`Bearer ${await token({ key: strangerKey })}`)).status).toBe(401);
  });

  it('refuses an unsigned (alg none) token with 401', async () => {
    const [, payload] = (await token()).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', kid: 'k1' })).toString('base64url');
    expect((await statusOf(`Bearer ${header}.${payload}.`)).status).toBe(401);
  });
});
