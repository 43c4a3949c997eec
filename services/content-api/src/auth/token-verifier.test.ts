import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProblemError } from '@triad/service-kit';
import { createTokenVerifier, type Caller, type TokenVerifier } from './token-verifier.js';
import { VerifiedTokens } from './verified-tokens.js';

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

describe('createTokenVerifier with verified tokens kept', () => {
  const pairs: { privateKey: CryptoKey; jwk: JWK }[] = [];
  /** The keys the verifier accepts now: a JWKS that a test can change (key removed, replaced). */
  let jwks: { keys: JWK[] };
  let localSet: ReturnType<typeof createLocalJWKSet>;
  let resolutions: number;
  let now: number;
  const keys: JWTVerifyGetKey = (header, input) => {
    resolutions++;
    return localSet(header, input);
  };
  const useKeys = (...indexes: number[]) => {
    jwks = { keys: indexes.map((i) => pairs[i]!.jwk) };
    localSet = createLocalJWKSet(jwks);
  };

  beforeAll(async () => {
    for (const kid of ['k1', 'k2']) {
      const pair = await generateKeyPair('ES256');
      pairs.push({ privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256' } });
    }
  });

  beforeEach(() => {
    useKeys(0);
    resolutions = 0;
    now = 1_800_000_000;
  });

  function sign(options: { exp: number; kid?: string; sub?: string; scope?: string }): Promise<string> {
    const index = options.kid === 'k2' ? 1 : 0;
    return new SignJWT({ scope: options.scope ?? 'content:read' })
      .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(options.sub ?? 'client-1')
      .setExpirationTime(options.exp)
      .sign(pairs[index]!.privateKey);
  }

  function verifier(verified: VerifiedTokens<Caller>): TokenVerifier {
    return createTokenVerifier({ keys, issuer: ISSUER, audience: AUDIENCE, now: () => now, verified });
  }

  async function detailOf(verify: TokenVerifier, header: string): Promise<string | undefined> {
    try {
      await verify(header);
      return 'accepted';
    } catch (error) {
      if (error instanceof ProblemError && error.status === 401) return error.detail;
      throw error;
    }
  }

  it('answers a token verified before from the cache, with the same caller', async () => {
    const verified = new VerifiedTokens<Caller>();
    const verify = verifier(verified);
    const header = `Bearer ${await sign({ exp: now + 600, scope: 'openid content:read' })}`;
    const first = await verify(header);
    const second = await verify(header);
    expect(second).toEqual({ subject: 'client-1', scopes: ['openid', 'content:read'] });
    expect(second).toBe(first);
    expect(verified.size).toBe(1);
  });

  it('refuses a cached token once it has expired, though the cache entry was younger than its TTL', async () => {
    const verified = new VerifiedTokens<Caller>({ ttlSeconds: 3600 });
    const verify = verifier(verified);
    const header = `Bearer ${await sign({ exp: now + 10 })}`;
    expect(await detailOf(verify, header)).toBe('accepted');
    now += 9;
    expect(await detailOf(verify, header)).toBe('accepted');
    now += 1;
    expect(await detailOf(verify, header)).toBe('The token has expired');
    expect(verified.size).toBe(0);
  });

  it('verifies a token again after the TTL, and refuses it when its key was removed meanwhile', async () => {
    const verified = new VerifiedTokens<Caller>({ ttlSeconds: 60 });
    const verify = verifier(verified);
    const header = `Bearer ${await sign({ exp: now + 3600 })}`;
    expect(await detailOf(verify, header)).toBe('accepted');
    now += 61;
    expect(await detailOf(verify, header)).toBe('accepted');
    useKeys(1);
    expect(await detailOf(verify, header)).toBe('No known key signed the token');
    expect(verified.size).toBe(0);
  });

  it('refuses a cached token at once when its key is revoked (removed from the key source)', async () => {
    const verified = new VerifiedTokens<Caller>({ ttlSeconds: 3600 });
    const verify = verifier(verified);
    const header = `Bearer ${await sign({ exp: now + 3600 })}`;
    expect(await detailOf(verify, header)).toBe('accepted');
    useKeys(1);
    expect(await detailOf(verify, header)).toBe('No known key signed the token');
    // A key published again under the same kid but different material does not revive the token.
    jwks = { keys: [{ ...pairs[1]!.jwk, kid: 'k1' }] };
    localSet = createLocalJWKSet(jwks);
    expect(await detailOf(verify, header)).toBe('The token signature is not valid');
  });

  it('verifies the signature again when the key source resolves a different key object', async () => {
    const verified = new VerifiedTokens<Caller>({ ttlSeconds: 3600 });
    const verify = verifier(verified);
    const header = `Bearer ${await sign({ exp: now + 3600 })}`;
    await verify(header);
    // The same key re-imported (a JWKS reloaded): accepted, after one more full verification.
    useKeys(0);
    resolutions = 0;
    expect(await detailOf(verify, header)).toBe('accepted');
    expect(resolutions).toBe(2);
    resolutions = 0;
    expect(await detailOf(verify, header)).toBe('accepted');
    expect(resolutions).toBe(1);
  });

  it('keeps no invalid token: a flood of distinct bad tokens is each verified and refused', async () => {
    const verified = new VerifiedTokens<Caller>({ entries: 4 });
    const verify = verifier(verified);
    const good = await sign({ exp: now + 600 });
    const [head, payload, signature] = good.split('.') as [string, string, string];
    for (let i = 0; i < 50; i++) {
      // The signature of another token: well formed, not valid for this payload.
      const tail = Buffer.from(String(i).padStart(4, '0')).toString('base64url');
      const forged = `${head}.${payload}.${signature.slice(0, -6)}${tail}`;
      expect(await detailOf(verify, `Bearer ${forged}`)).toBe('The token signature is not valid');
    }
    const expired = await sign({ exp: now - 1 });
    expect(await detailOf(verify, `Bearer ${expired}`)).toBe('The token has expired');
    expect(await detailOf(verify, `Bearer ${expired}`)).toBe('The token has expired');
    expect(verified.size).toBe(0);
  });

  it('keeps at most its bound of tokens, dropping the least recently used', async () => {
    const verified = new VerifiedTokens<Caller>({ entries: 2 });
    const verify = verifier(verified);
    const tokens = await Promise.all(['a', 'b', 'c'].map((sub) => sign({ exp: now + 600, sub })));
    const [a, b, c] = tokens.map((t) => `Bearer ${t}`) as [string, string, string];
    await verify(a);
    await verify(b);
    await verify(a);
    await verify(c);
    expect(verified.size).toBe(2);
    // `b` was the least recently used when `c` came.
    const keyOf = (header: string) => VerifiedTokens.keyOf(header.slice('Bearer '.length));
    expect(verified.get(keyOf(b), now)).toBeUndefined();
    expect(verified.get(keyOf(a), now)?.caller.subject).toBe('a');
    expect(verified.get(keyOf(c), now)?.caller.subject).toBe('c');
  });

  it('verifies every call when the cache is turned off', async () => {
    const verify = createTokenVerifier({ keys, issuer: ISSUER, audience: AUDIENCE, now: () => now, verified: false });
    const header = `Bearer ${await sign({ exp: now + 600 })}`;
    await verify(header);
    const caller = await verify(header);
    expect(caller.subject).toBe('client-1');
    expect(resolutions).toBe(2);
  });
});
