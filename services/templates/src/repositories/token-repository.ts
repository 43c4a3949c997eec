import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '@triad/db';
import type { Kysely } from 'kysely';
import { PasswordHasher } from '@triad/service-kit';
import type { TemplatesDatabase } from './templates-tables.js';
import type { ApiTokenRecord } from '../model/api-token-record.js';
import type { TokenScope } from '../model/token-scope.js';

/** Tokens read `tdt_<id>_<secret>`: the id finds the row, the secret is checked against its hash. */
const TOKEN_FORMAT = /^tdt_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
/** scrypt cost: the token's secret has 256 random bits, so this guards a stolen table, not guessing. */
const COST = 16_384;
/** How long a checked token is taken on trust from memory (revocation is still read each time). */
const TRUST_MS = 10 * 60_000;

/**
 * `api_tokens`: create (the token is returned once, only its scrypt hash is stored), list, revoke,
 * and check a presented token. A successful check is remembered for 10 minutes by the SHA-256 of
 * the token, so a client that writes often pays scrypt once; revocation takes effect at once.
 */
export class TokenRepository {
  readonly #db: Kysely<TemplatesDatabase>;
  readonly #trusted = new Map<string, { id: string; until: number }>();
  readonly #hasher = new PasswordHasher(COST);

  constructor(database: Database<TemplatesDatabase>) {
    this.#db = database.db;
  }

  async create(name: string, scope: TokenScope, now = Date.now()): Promise<{ record: ApiTokenRecord; token: string }> {
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const secretHash = await this.#hasher.hash(secret);
    await this.#db
      .insertInto('api_tokens')
      .values({ id, name, scope, secret_hash: secretHash, created_at: now, last_used_at: null, revoked_at: null })
      .execute();
    return {
      record: { id, name, scope, createdAt: now, lastUsedAt: null, revokedAt: null },
      token: `tdt_${id}_${secret}`,
    };
  }

  async list(): Promise<ApiTokenRecord[]> {
    const rows = await this.#db.selectFrom('api_tokens').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      scope: row.scope as TokenScope,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    }));
  }

  /** Revokes a token by id; false when there is no such live token. */
  async revoke(id: string, now = Date.now()): Promise<boolean> {
    const result = await this.#db
      .updateTable('api_tokens')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The scope of a presented token, or undefined when it is malformed, unknown, revoked or wrong. */
  async check(token: string, now = Date.now()): Promise<{ id: string; scope: TokenScope } | undefined> {
    const [, id, secret] = TOKEN_FORMAT.exec(token) ?? [];
    if (id === undefined || secret === undefined) return undefined;
    const row = await this.#db
      .selectFrom('api_tokens')
      .select(['scope', 'secret_hash', 'revoked_at', 'last_used_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined || row.revoked_at !== null) return undefined;
    const digest = createHash('sha256').update(token).digest('hex');
    const trusted = this.#trusted.get(digest);
    if (trusted === undefined || trusted.until < now || trusted.id !== id) {
      if (!(await this.#hasher.verify(secret, row.secret_hash))) return undefined;
      if (this.#trusted.size > 10_000) this.#trusted.clear();
      this.#trusted.set(digest, { id, until: now + TRUST_MS });
    }
    // Last use is kept to the minute: no write per request.
    if (row.last_used_at === null || now - Number(row.last_used_at) > 60_000)
      await this.#db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
    return { id, scope: row.scope as TokenScope };
  }
}
