import { loadConfig, settingsFromEnv, type LogFormat, type LogLevel } from '@triad/service-kit';

/** The content API's settings, validated and frozen. */
export interface ContentApiConfig {
  readonly host: string;
  readonly port: number;
  /** Directory of the SQLite file `content.sqlite` (used when no databaseUrl is set). */
  readonly dataDir: string;
  /** PostgreSQL URL; when set, articles live and are searched there. */
  readonly databaseUrl?: string;
  /** Seed a generated demo catalog into an empty store at start-up. */
  readonly demo: boolean;
  /** Articles of the demo catalog. */
  readonly demoArticles: number;
  readonly logLevel: LogLevel;
  /** `pretty` or `json` log lines; unset: pretty when standard error is a terminal, else JSON. */
  readonly logFormat?: LogFormat;
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
  /** Lifetime of tokens the built-in endpoint issues, seconds. */
  readonly tokenLifetimeSeconds: number;
  /** Base of problem `type` URIs: `<errorsBase>/errors/invalid-query-param`. */
  readonly errorsBase: string;
  /** Public base URL put in links; default: taken from each request's Host. */
  readonly publicUrl?: string;
}

/** Settings a caller (CLI, tests) may pass over the environment. */
export type ContentApiConfigOverrides = Partial<ContentApiConfig>;

/** Schema and defaults, one place; `env` names the variable feeding each setting. */
export const contentApiConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'host',
    'port',
    'dataDir',
    'demo',
    'demoArticles',
    'logLevel',
    'tokenIssuer',
    'tokenAudience',
    'requiredScope',
    'tokenLifetimeSeconds',
    'errorsBase',
  ],
  properties: {
    host: { type: 'string', minLength: 1, default: '127.0.0.1', env: 'TRIAD_CONTENT_HOST' },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 8081, env: 'TRIAD_CONTENT_PORT' },
    dataDir: { type: 'string', minLength: 1, default: './data', env: 'TRIAD_DATA_DIR' },
    databaseUrl: { type: 'string', pattern: '^postgres(ql)?://', env: 'DATABASE_URL' },
    demo: { type: 'boolean', default: true, env: 'TRIAD_DEMO' },
    demoArticles: {
      type: 'integer',
      minimum: 0,
      maximum: 10_000_000,
      default: 5000,
      env: 'TRIAD_CONTENT_DEMO_ARTICLES',
    },
    logLevel: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      env: 'TRIAD_LOG_LEVEL',
    },
    logFormat: { type: 'string', enum: ['pretty', 'json'], env: 'TRIAD_LOG_FORMAT' },
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
    tokenLifetimeSeconds: {
      type: 'integer',
      minimum: 60,
      maximum: 86_400,
      default: 3600,
      env: 'TRIAD_CONTENT_TOKEN_LIFETIME',
    }, // 1 h
    errorsBase: {
      type: 'string',
      pattern: '^https?://',
      default: 'https://developers.triad.invalid',
      env: 'TRIAD_CONTENT_ERRORS_BASE',
    },
    publicUrl: { type: 'string', pattern: '^https?://[^/]+$', env: 'TRIAD_CONTENT_PUBLIC_URL' },
  },
} as const;

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads the settings: `overrides` win, then the environment (default `process.env`; this module
 * is the service's only reader of it), then `fallbacks` (a host's own defaults, such as
 * `triad serve --port-base`), then the schema's defaults. An empty variable counts as unset.
 *
 * @throws ConfigError listing every invalid setting.
 */
export function loadContentApiConfig(
  env: Environment = process.env,
  overrides: ContentApiConfigOverrides = {},
  fallbacks: ContentApiConfigOverrides = {},
): ContentApiConfig {
  return loadConfig<ContentApiConfig>(
    contentApiConfigSchema,
    fallbacks,
    settingsFromEnv(contentApiConfigSchema, env),
    overrides,
  );
}
