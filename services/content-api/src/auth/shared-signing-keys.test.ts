import { migrateToLatest, type Database } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { SignJWT, generateKeyPair } from 'jose';
import { beforeAll, expect, it } from 'vitest';
import { ProblemError } from '@triad/service-kit';
import { createSigningKeys } from '../migrations/0006-create-signing-keys.js';
import { SigningKeyRepository } from '../repositories/signing-key-repository.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { createLocalIdentity, type LocalIdentity } from './local-identity.js';
import { createTokenVerifier } from './token-verifier.js';

const ISSUER = 'urn:triad:content-api';
const AUDIENCE = 'urn:triad:content-api';

/** One instance's built-in identity, with the configured client every instance shares. */
function identity(database: Database<ContentTables>): Promise<LocalIdentity> {
  return createLocalIdentity({
    clientId: 'shared-client',
    clientSecret: 'a shared secret of the read client',
    issuer: ISSUER,
    audience: AUDIENCE,
    lifetimeSeconds: 600,
    scope: 'content:read',
    keyStore: new SigningKeyRepository(database),
  });
}

async function status(instance: LocalIdentity, token: string): Promise<number> {
  const verify = createTokenVerifier({
    keys: instance.keys,
    issuer: ISSUER,
    audience: AUDIENCE,
  });
  try {
    await verify(`Bearer ${token}`);
    return 200;
  } catch (error) {
    if (error instanceof ProblemError) return error.status;
    throw error;
  }
}

describeEachDatabase<ContentTables>('built-in identity shared by instances', (getDb) => {
  let first: LocalIdentity;
  let second: LocalIdentity;
  beforeAll(async () => {
    await migrateToLatest(getDb(), {
      migrations: { '0006_signing_keys': createSigningKeys },
      tableName: 'content_migrations',
    });
    first = await identity(getDb());
    second = await identity(getDb());
  });

  it('accepts a token issued by another instance on the same database', async () => {
    const { accessToken } = await first.issueToken('content:read');
    expect(await status(second, accessToken)).toBe(200);
    expect(await status(first, (await second.issueToken('content:read')).accessToken)).toBe(200);
  });

  it('lists every instance’s public key, and only public parts', async () => {
    const listed = await second.publicKeys();
    const kids = listed.keys.map((key) => key.kid);
    expect(kids).toEqual(expect.arrayContaining([first.jwks.keys[0]!.kid, second.jwks.keys[0]!.kid]));
    for (const key of listed.keys) expect(key).not.toHaveProperty('d');
  });

  it('refuses a token signed by a key no instance published, even with a known kid', async () => {
    const stranger = await generateKeyPair('ES256');
    const forged = await new SignJWT({ scope: 'content:read' })
      .setProtectedHeader({ alg: 'ES256', kid: first.jwks.keys[0]!.kid! })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('shared-client')
      .setExpirationTime('5m')
      .sign(stranger.privateKey);
    expect(await status(second, forged)).toBe(401);
    const unknownKid = await new SignJWT({ scope: 'content:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'no-such-key' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('shared-client')
      .setExpirationTime('5m')
      .sign(stranger.privateKey);
    expect(await status(second, unknownKid)).toBe(401);
  });
});
