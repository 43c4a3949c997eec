import { availableParallelism } from 'node:os';
import {
  REQUIRED_SERVICE_SETTINGS,
  serviceConfigLoader,
  serviceSettingsProperties,
  type ServiceSettings,
} from '@triad/service-kit';

/** The content API's settings, validated and frozen. */
export interface ContentApiConfig extends ServiceSettings {
  /** Articles of the demo catalog. */
  readonly demoArticles: number;
  /** Client id of the built-in token endpoint; generated at start when unset. */
  readonly oauthClientId?: string;
  /** Client secret of the built-in token endpoint; generated at start when unset. */
  readonly oauthClientSecret?: string;
  /** Remote JWKS to verify tokens with (an external identity provider); disables the built-in endpoint. */
  readonly jwksUrl?: string;
  /** Local JWKS file to verify tokens with; disables the built-in endpoint. */
  readonly jwksFile?: string;
  /** Expected `iss` of tokens (and the one the built-in endpoint issues). */
  readonly tokenIssuer: string;
  /** Expected `aud` of tokens (and the one the built-in endpoint issues). */
  readonly tokenAudience: string;
  /** Scope a token needs to read content; a valid token without it gets 403. */
  readonly requiredScope: string;
  /** Scope a token needs for the admin API (`/admin/...`); must differ from `requiredScope`. */
  readonly adminScope: string;
  /** Client id of the built-in identity's admin client; with `demo` and no id, one is generated. */
  readonly adminClientId?: string;
  /** Its secret (kept only as a scrypt hash); with `demo` and no secret, one is generated. */
  readonly adminClientSecret?: string;
  /** Lifetime of tokens the built-in endpoint issues, seconds. */
  readonly tokenLifetimeSeconds: number;
  /** Wrong client secrets one client id (or client address) may send in a row at `/oauth/token`. */
  readonly tokenFailureBurst: number;
  /** Seconds in which a client that stopped sending wrong secrets regains all its tries. */
  readonly tokenFailureWindowSeconds: number;
  /** Base of problem `type` URIs: `<errorsBase>/errors/invalid-query-param`. */
  readonly errorsBase: string;
  /** Public base URL put in links; default: taken from each request's Host. */
  readonly publicUrl?: string;
  /**
   * Worker threads running search passes over the shared loaded catalog (decision 0051); 0 or 1:
   * searches run on the main thread. Default: one per core on a machine of 2 cores or more (at most 8).
   */
  readonly searchThreads: number;
  /** Catalogs of fewer articles are searched on the main thread even with workers (decision 0051). */
  readonly searchThreadsFrom: number;
}

/** One search worker per core when there is more than one core, at most 8 (decision 0051). */
export const DEFAULT_SEARCH_THREADS: number = availableParallelism() > 1 ? Math.min(availableParallelism(), 8) : 0;

/** Settings a caller (CLI, tests) may pass over the environment. */
export type ContentApiConfigOverrides = Partial<ContentApiConfig>;

/** Schema and defaults, one place; `env` names the variable feeding each setting. */
export const contentApiConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    ...REQUIRED_SERVICE_SETTINGS,
    'demoArticles',
    'tokenIssuer',
    'tokenAudience',
    'requiredScope',
    'adminScope',
    'tokenLifetimeSeconds',
    'tokenFailureBurst',
    'tokenFailureWindowSeconds',
    'errorsBase',
    'searchThreads',
    'searchThreadsFrom',
  ],
  properties: {
    ...serviceSettingsProperties({ envPrefix: 'TRIAD_CONTENT', port: 8081, demo: true }),
    demoArticles: {
      type: 'integer',
      minimum: 0,
      maximum: 10_000_000,
      default: 5000,
      env: 'TRIAD_CONTENT_DEMO_ARTICLES',
    },
    oauthClientId: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$', env: 'TRIAD_OAUTH_CLIENT_ID' },
    oauthClientSecret: { type: 'string', minLength: 8, maxLength: 500, env: 'TRIAD_OAUTH_CLIENT_SECRET' },
    jwksUrl: { type: 'string', pattern: '^https?://', env: 'TRIAD_CONTENT_JWKS_URL' },
    jwksFile: { type: 'string', minLength: 1, env: 'TRIAD_CONTENT_JWKS_FILE' },
    tokenIssuer: { type: 'string', minLength: 1, default: 'urn:triad:content-api', env: 'TRIAD_CONTENT_TOKEN_ISSUER' },
    tokenAudience: {
      type: 'string',
      minLength: 1,
      default: 'urn:triad:content-api',
      env: 'TRIAD_CONTENT_TOKEN_AUDIENCE',
    },
    requiredScope: { type: 'string', pattern: '^\\S+$', default: 'content:read', env: 'TRIAD_CONTENT_REQUIRED_SCOPE' },
    adminScope: { type: 'string', pattern: '^\\S+$', default: 'content:admin', env: 'TRIAD_CONTENT_ADMIN_SCOPE' },
    adminClientId: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$', env: 'TRIAD_CONTENT_ADMIN_CLIENT_ID' },
    adminClientSecret: { type: 'string', minLength: 16, maxLength: 500, env: 'TRIAD_CONTENT_ADMIN_CLIENT_SECRET' },
    tokenLifetimeSeconds: {
      type: 'integer',
      minimum: 60,
      maximum: 86_400,
      default: 3600,
      env: 'TRIAD_CONTENT_TOKEN_LIFETIME',
    }, // 1 h
    tokenFailureBurst: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      default: 10,
      env: 'TRIAD_CONTENT_TOKEN_FAILURE_BURST',
    },
    tokenFailureWindowSeconds: {
      type: 'integer',
      minimum: 1,
      maximum: 86_400,
      default: 60,
      env: 'TRIAD_CONTENT_TOKEN_FAILURE_WINDOW',
    }, // 1 min: one try back every 6 s
    errorsBase: {
      type: 'string',
      pattern: '^https?://',
      default: 'https://developers.triad.invalid',
      env: 'TRIAD_CONTENT_ERRORS_BASE',
    },
    publicUrl: { type: 'string', pattern: '^https?://[^/]+$', env: 'TRIAD_CONTENT_PUBLIC_URL' },
    searchThreads: {
      type: 'integer',
      minimum: 0,
      maximum: 256,
      default: DEFAULT_SEARCH_THREADS,
      env: 'TRIAD_CONTENT_SEARCH_THREADS',
    },
    searchThreadsFrom: {
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000_000,
      default: 100_000,
      env: 'TRIAD_CONTENT_SEARCH_THREADS_FROM',
    },
  },
} as const;

/**
 * Reads the settings: `(env = process.env, overrides, fallbacks)`, layered as
 * `serviceConfigLoader` says. This module is the service's only reader of `process.env`.
 *
 * @throws ConfigError listing every invalid setting.
 */
export const loadContentApiConfig = serviceConfigLoader<ContentApiConfig>(contentApiConfigSchema, () => process.env);
