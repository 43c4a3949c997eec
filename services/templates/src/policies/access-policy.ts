/**
 * Who may do what with the registry (issue 16). Reads are open unless `readAccess` is `token`;
 * reads of devices (list, one, values, alarms, events, stream) need a token of scope `read` or
 * more unless `devicesReadAccess` is `open` (issue 23); writes (templates, versions, deletes,
 * devices) need a bearer token of scope `write` or `admin` unless `writeAccess` is `open`.
 * Tokens are the registry's API tokens (`triad templates tokens`), or
 * `TRIAD_TEMPLATES_ADMIN_TOKEN`, a bootstrap admin token compared in constant time. A missing or
 * unknown token is 401, a token without the scope 403, both problem+json.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PasswordHashBusyError } from '@triad/service-kit';
import { templatesProblems } from '../errors.js';
import type { TokenScope } from '../model/token-scope.js';
import type { TokenRepository } from '../repositories/token-repository.js';

const RANK: Readonly<Record<TokenScope, number>> = { read: 1, write: 2, admin: 3 };

export interface AccessPolicyOptions {
  readonly tokens: Pick<TokenRepository, 'check'>;
  readonly adminToken?: string | undefined;
  readonly readAccess: 'open' | 'token';
  /** Reads under `/devices`; default `token`. */
  readonly devicesReadAccess?: 'open' | 'token';
  readonly writeAccess: 'open' | 'token';
}

/** What a read is of: the template registry, or devices (their addresses, states and values). */
export type ReadArea = 'registry' | 'devices';

export class AccessPolicy {
  readonly #options: AccessPolicyOptions;
  readonly #admin: Buffer | undefined;
  /** The scope each request's token was found to have (undefined: it showed none). */
  readonly #granted = new WeakMap<FastifyRequest, TokenScope | undefined>();

  constructor(options: AccessPolicyOptions) {
    this.#options = options;
    this.#admin = options.adminToken ? digest(options.adminToken) : undefined;
  }

  /** Whether a request needing `scope` (a read of `area`) must show a token at all. */
  needsToken(scope: TokenScope, area: ReadArea = 'registry'): boolean {
    if (scope === 'read')
      return area === 'devices'
        ? (this.#options.devicesReadAccess ?? 'token') === 'token'
        : this.#options.readAccess === 'token';
    return this.#options.writeAccess === 'token' || this.#admin !== undefined;
  }

  /**
   * Whether the request may write (its token has scope write or admin, or writes are open): what
   * decides if it sees why a device cannot be read, which could tell an open port from a closed one.
   * A missing, unknown or revoked token is simply no.
   */
  async mayWrite(request: FastifyRequest): Promise<boolean> {
    if (!this.needsToken('write')) return true;
    try {
      const granted = await this.#grant(request);
      return granted !== undefined && RANK[granted] >= RANK.write;
    } catch {
      return false;
    }
  }

  /**
   * Who makes a write, as an acknowledgement records it: `token <id>` of an API token, `admin
   * token`, or `anonymous` when writes are open and no token was shown. Call after `require`.
   */
  async whoIs(request: FastifyRequest): Promise<string> {
    const header = request.headers.authorization;
    const presented = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (presented === undefined || (await this.#grant(request).catch(() => undefined)) === undefined)
      return 'anonymous';
    if (this.#admin !== undefined && timingSafeEqual(digest(presented), this.#admin)) return 'admin token';
    // The id part of `tdt_<id>_<secret>` (TokenRepository's format): listed by `tokens list`, not secret.
    const id = /^tdt_([0-9a-f]{16})_/.exec(presented)?.[1];
    return id === undefined ? 'a token' : `token ${id}`;
  }

  /** Throws the 401/403 problem unless the request may act with `scope` (a read of `area`). */
  async require(request: FastifyRequest, scope: TokenScope, area: ReadArea = 'registry'): Promise<void> {
    if (!this.needsToken(scope, area)) return;
    const granted = await this.#grant(request);
    if (granted === undefined)
      throw templatesProblems.create(
        'TPL_ERR_UNAUTHORIZED',
        `This ${scope === 'read' ? 'read' : 'write'} needs "Authorization: Bearer <token>"; ` +
          `create a token with: triad templates tokens add <name> --scope ${scope === 'admin' ? 'admin' : scope}`,
      );
    if (RANK[granted] < RANK[scope])
      throw templatesProblems.create('TPL_ERR_FORBIDDEN', `This token has scope ${granted}; this needs ${scope}`);
  }

  /**
   * The scope of the request's bearer token, checked once per request; undefined without one.
   * Throws 401 for an unknown or revoked token, 503 when token checks are queued full.
   */
  async #grant(request: FastifyRequest): Promise<TokenScope | undefined> {
    if (this.#granted.has(request)) return this.#granted.get(request);
    const granted = await this.#check(request);
    this.#granted.set(request, granted);
    return granted;
  }

  async #check(request: FastifyRequest): Promise<TokenScope | undefined> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const presented = match?.[1];
    if (presented === undefined) return undefined;
    const granted = await this.scopeOf(presented);
    if (granted === undefined)
      throw templatesProblems.create(
        'TPL_ERR_UNAUTHORIZED',
        'The bearer token is unknown or revoked; list the live ones with: triad templates tokens list',
      );
    return granted;
  }

  /**
   * The scope a presented token grants: `admin` for `TRIAD_TEMPLATES_ADMIN_TOKEN` (compared in
   * constant time), else the API token's scope; undefined when it is unknown or revoked.
   * @throws the 503 `TPL_ERR_TOKEN_CHECKS_BUSY` problem when token checks are queued full
   */
  async scopeOf(presented: string): Promise<TokenScope | undefined> {
    if (this.#admin !== undefined && timingSafeEqual(digest(presented), this.#admin)) return 'admin';
    return (await this.#checkToken(presented))?.scope;
  }

  /** `tokens.check`, with a full queue of token checks as a 503 (the hook adds `Retry-After`). */
  async #checkToken(presented: string) {
    try {
      return await this.#options.tokens.check(presented);
    } catch (error) {
      if (!(error instanceof PasswordHashBusyError)) throw error;
      throw templatesProblems.create(
        'TPL_ERR_TOKEN_CHECKS_BUSY',
        'Too many new tokens are being checked at once; retry in a second',
      );
    }
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
