import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import { ClientSecretHash } from './client-secret.js';

/** The admin client of the built-in identity (its secret is kept only as a scrypt hash). */
export interface LocalAdminClient {
  readonly clientId: string;
  /** The generated secret, to print once at start-up; absent when it was configured. */
  readonly generatedSecret?: string;
  /** The scope its tokens carry. */
  readonly scope: string;
}

/**
 * The built-in identity provider of the embedded default: one signing key, the read client and
 * optionally an admin client.
 */
export interface LocalIdentity {
  readonly clientId: string;
  /** The configured secret, or the generated one (printed at start-up). */
  readonly clientSecret: string;
  /** True when id and secret were generated because none were configured. */
  readonly generated: boolean;
  /** This process's public key. */
  readonly jwks: JSONWebKeySet;
  /**
   * Public keys, as served at `/.well-known/jwks.json`: this process's, and with a `keyStore`
   * those of every instance whose tokens may still be valid.
   */
  publicKeys(): Promise<JSONWebKeySet>;
  /** Key resolver for `createTokenVerifier`. */
  readonly keys: JWTVerifyGetKey;
  /**
   * True once this process's public key is in the `keyStore` (the other instances then accept its
   * tokens); always true without a store. Publishing is retried in the background while the
   * store cannot be written (an import holding SQLite's write lock).
   */
  keyShared(): boolean;
  /** The admin client, when one was configured or generated. */
  readonly admin?: LocalAdminClient;
  /**
   * The scope `id`/`secret` may be granted (the read scope, or the admin scope for the admin
   * client); undefined for an unknown client or a wrong secret. Costs one scrypt whatever the
   * input, so timing tells neither which client nor which part was wrong.
   */
  scopeOf(id: string, secret: string): Promise<string | undefined>;
  /** Signs an access token for the client `subject` (default: the read client). */
  issueToken(scope: string, subject?: string): Promise<{ readonly accessToken: string; readonly expiresIn: number }>;
}

export interface LocalIdentityOptions {
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  readonly issuer: string;
  readonly audience: string;
  /** Seconds. */
  readonly lifetimeSeconds: number;
  /** The scope of the read client's tokens. */
  readonly scope: string;
  /**
   * The admin client: configured (`clientId` and `clientSecret`), generated (`generate`), or
   * none (neither).
   */
  readonly admin?: {
    readonly clientId?: string | undefined;
    readonly clientSecret?: string | undefined;
    readonly generate: boolean;
    readonly scope: string;
  };
  /**
   * Where the instances on one database share their public keys, so that a token issued by one
   * is accepted by all. Without it only this process's tokens verify.
   */
  readonly keyStore?: SharedKeyStore;
  /** Where a key that cannot be published yet is reported (a pino logger fits). */
  readonly log?: { info(object: object, message: string): void; warn(object: object, message: string): void };
}

/** The shared public keys (`SigningKeyRepository`). */
export interface SharedKeyStore {
  publish(key: JWK & { readonly kid: string }, now: number): Promise<void>;
  find(kid: string): Promise<JWK | undefined>;
  list(since: number): Promise<JWK[]>;
  prune(before: number): Promise<number>;
}

/** Between attempts to publish a key the store refused (busy), ms. */
const KEY_RETRY_MS = 2_000;

/** How often an instance says its key is still in use (and prunes keys nobody uses). */
const KEY_HEARTBEAT_MS = 10 * 60_000;

/**
 * Creates the built-in identity: a fresh ES256 key pair per process (its tokens stop verifying
 * when it stops; with a `keyStore`, once their lifetime has passed), the read client from config
 * or generated (`triad-<hex>` / 32 random bytes base64url), and the admin client from config
 * or generated (`triad-admin-<hex>`) when asked. Secrets are kept as scrypt hashes for checking.
 */
export async function createLocalIdentity(options: LocalIdentityOptions): Promise<LocalIdentity> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const kid = randomBytes(8).toString('hex');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const jwks: JSONWebKeySet = { keys: [jwk] };
  const ownKeys = createLocalJWKSet(jwks);
  const store = options.keyStore;
  // A key is listed and accepted while a token it signed may be unexpired: its instance was seen
  // within the token lifetime plus one heartbeat.
  const keptMs = options.lifetimeSeconds * 1000 + 2 * KEY_HEARTBEAT_MS;
  let shared = !store;
  if (store) {
    const publish = () => store.publish(jwk, Date.now()).then(() => void (shared = true));
    await publish().catch((error: unknown) => {
      options.log?.warn(
        { err: error },
        "this instance's token key cannot be published to the database yet (an import may hold its write " +
          `lock); retrying every ${KEY_RETRY_MS / 1000} s. Tokens from here verify here meanwhile`,
      );
      const retry = setInterval(() => {
        void publish().then(
          () => {
            clearInterval(retry);
            options.log?.info({ kid }, "this instance's token key is published");
          },
          () => {},
        );
      }, KEY_RETRY_MS);
      retry.unref();
    });
    const heartbeat = setInterval(() => {
      const now = Date.now();
      void store
        .publish(jwk, now)
        .then(() => store.prune(now - keptMs))
        .catch(() => {});
    }, KEY_HEARTBEAT_MS);
    heartbeat.unref();
  }
  const keys: JWTVerifyGetKey = store ? sharedKeys(kid, ownKeys, store) : ownKeys;
  const generated = !options.clientId || !options.clientSecret;
  const clientId = options.clientId ?? `triad-${randomBytes(6).toString('hex')}`;
  const clientSecret = options.clientSecret ?? randomBytes(32).toString('base64url');
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const admin = adminClient(options.admin);
  const [readHash, adminHash, decoy] = await Promise.all([
    ClientSecretHash.of(clientSecret),
    admin ? ClientSecretHash.of(admin.secret) : undefined,
    // Checked against when no id matches, so an unknown id costs the same scrypt as a known one.
    ClientSecretHash.of(randomBytes(32).toString('base64url')),
  ]);
  const clients = [{ id: digest(clientId), secret: readHash, scope: options.scope }];
  if (admin && adminHash) clients.push({ id: digest(admin.clientId), secret: adminHash, scope: admin.scope });
  return {
    clientId,
    clientSecret,
    generated,
    jwks,
    keys,
    keyShared: () => shared,
    async publicKeys() {
      if (!store) return jwks;
      const shared = await store.list(Date.now() - keptMs);
      return { keys: shared.some((k) => k.kid === kid) ? shared : [jwk, ...shared] };
    },
    ...(admin
      ? {
          admin: {
            clientId: admin.clientId,
            scope: admin.scope,
            ...(admin.generated ? { generatedSecret: admin.secret } : {}),
          },
        }
      : {}),
    async scopeOf(id, secret) {
      const given = digest(id);
      const client = clients.find((c) => timingSafeEqual(given, c.id));
      const secretOk = await (client?.secret ?? decoy).matches(secret);
      return client && secretOk ? client.scope : undefined;
    },
    async issueToken(scope, subject = clientId) {
      const accessToken = await new SignJWT({ scope })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${options.lifetimeSeconds}s`)
        .setJti(randomBytes(12).toString('base64url'))
        .sign(privateKey);
      return { accessToken, expiresIn: options.lifetimeSeconds };
    },
  };
}

function adminClient(options: LocalIdentityOptions['admin']) {
  if (!options) return undefined;
  const { scope } = options;
  if (options.clientId && options.clientSecret)
    return { clientId: options.clientId, secret: options.clientSecret, scope, generated: false };
  if (!options.generate) return undefined;
  const id = `triad-admin-${randomBytes(6).toString('hex')}`;
  return { clientId: id, secret: randomBytes(32).toString('base64url'), scope, generated: true };
}

/**
 * Resolves a token's key: this process's own first, else the shared store (imported keys are
 * cached; an unknown kid costs one indexed lookup and is refused).
 */
function sharedKeys(ownKid: string, own: JWTVerifyGetKey, store: SharedKeyStore): JWTVerifyGetKey {
  const imported = new Map<string, Promise<Awaited<ReturnType<typeof importJWK>>>>();
  return async (header, token) => {
    if (header.kid === undefined || header.kid === ownKid) return own(header, token);
    const kid = header.kid;
    let key = imported.get(kid);
    if (!key) {
      const found = await store.find(kid);
      if (!found || found.alg !== header.alg) throw new errors.JWKSNoMatchingKey();
      key = importJWK(found, header.alg);
      if (imported.size > 1_000) imported.clear();
      imported.set(kid, key);
    }
    return key;
  };
}
