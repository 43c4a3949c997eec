import { loadConfig, settingsFromEnv, type LogFormat, type LogLevel } from '@triad/service-kit';

/** The template service's settings, validated and frozen. */
export interface TemplatesConfig {
  readonly host: string;
  readonly port: number;
  /** Directory of the SQLite file `templates.sqlite` (used when no databaseUrl is set). */
  readonly dataDir: string;
  /** PostgreSQL URL; when set, data lives there instead of SQLite. */
  readonly databaseUrl?: string;
  /** Seed the example templates into an empty store at start-up. */
  readonly demo: boolean;
  /** Folder of example templates to seed; default the device-templates package's `examples/`. */
  readonly seedDir?: string;
  readonly logLevel: LogLevel;
  /** `pretty` or `json` log lines; unset: pretty when standard error is a terminal, else JSON. */
  readonly logFormat?: LogFormat;
  /** Largest body of ordinary routes, bytes. */
  readonly bodyLimit: number;
  /** Largest template source (writes and /validate), bytes. */
  readonly sourceBodyLimit: number;
  /** Most nesting levels of a JSON body. */
  readonly maxJsonDepth: number;
}

/** Settings a caller (CLI, tests) may pass over the environment. */
export type TemplatesConfigOverrides = Partial<TemplatesConfig>;

/** Schema and defaults, one place; `env` names the variable feeding each setting. */
export const templatesConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'port', 'dataDir', 'demo', 'logLevel', 'bodyLimit', 'sourceBodyLimit', 'maxJsonDepth'],
  properties: {
    host: { type: 'string', minLength: 1, default: '127.0.0.1', env: 'TRIAD_TEMPLATES_HOST' },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 8082, env: 'TRIAD_TEMPLATES_PORT' },
    dataDir: { type: 'string', minLength: 1, default: './data', env: 'TRIAD_DATA_DIR' },
    databaseUrl: { type: 'string', pattern: '^postgres(ql)?://', env: 'DATABASE_URL' },
    demo: { type: 'boolean', default: true, env: 'TRIAD_DEMO' },
    seedDir: { type: 'string', minLength: 1, env: 'TRIAD_TEMPLATES_SEED_DIR' },
    logLevel: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      env: 'TRIAD_LOG_LEVEL',
    },
    logFormat: { type: 'string', enum: ['pretty', 'json'], env: 'TRIAD_LOG_FORMAT' },
    bodyLimit: { type: 'integer', minimum: 1024, default: 1_048_576, env: 'TRIAD_TEMPLATES_BODY_LIMIT' }, // 1 MiB
    // 8 MiB
    sourceBodyLimit: { type: 'integer', minimum: 1024, default: 8_388_608, env: 'TRIAD_TEMPLATES_SOURCE_BODY_LIMIT' },
    maxJsonDepth: { type: 'integer', minimum: 8, maximum: 1000, default: 64, env: 'TRIAD_MAX_JSON_DEPTH' },
  },
} as const;

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads the service settings: `overrides` win, then the environment (default `process.env`; this
 * module is the service's only reader of it), then `fallbacks` (a host's own defaults, such as
 * `triad serve --port-base`), then the schema's defaults. An empty variable counts as unset.
 *
 * @throws ConfigError listing every invalid setting.
 */
export function loadTemplatesConfig(
  env: Environment = process.env,
  overrides: TemplatesConfigOverrides = {},
  fallbacks: TemplatesConfigOverrides = {},
): TemplatesConfig {
  return loadConfig<TemplatesConfig>(
    templatesConfigSchema,
    fallbacks,
    settingsFromEnv(templatesConfigSchema, env),
    overrides,
  );
}
