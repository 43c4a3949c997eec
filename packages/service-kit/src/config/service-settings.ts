import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../connections/connection-limits.js';
import type { LogFormat, LogLevel } from '../logger.js';

/**
 * The settings every Triad service has, whatever else it adds. The connection limits are always
 * set once loaded (they have defaults); they are optional here so a caller may build settings by
 * hand. Pass the settings as `createServiceApp`'s `connections`.
 */
export interface ServiceSettings extends Partial<ConnectionLimits> {
  readonly host: string;
  readonly port: number;
  /** Directory of the service's SQLite file (used when no `databaseUrl` is set). */
  readonly dataDir: string;
  /** PostgreSQL URL; when set, the service keeps its data there instead of SQLite. */
  readonly databaseUrl?: string;
  /**
   * PostgreSQL URLs of streaming read replicas of `databaseUrl`, for reads that may lag the
   * primary by a moment. Ignored (with a warning when the service opens them) without `databaseUrl`.
   */
  readonly databaseReadUrls?: readonly string[];
  /** Seed the service's demo data into an empty store at start-up. */
  readonly demo: boolean;
  readonly logLevel: LogLevel;
  /** `pretty` or `json` log lines; unset: pretty when standard error is a terminal, else JSON. */
  readonly logFormat?: LogFormat;
}

/** One PostgreSQL URL of a comma-separated list: the scheme, then no blank and no comma. */
const POSTGRES_URL_ITEM = '^postgres(ql)?://[^\\s,]+$';

/** Config-schema properties of the connection limits (ms, or a count); 0 turns a limit off where noted. */
const CONNECTION_LIMIT_PROPERTIES = {
  headersTimeoutMs: {
    type: 'integer',
    minimum: 100,
    maximum: 3_600_000,
    default: DEFAULT_CONNECTION_LIMITS.headersTimeoutMs,
    env: 'TRIAD_HEADERS_TIMEOUT_MS',
  },
  // 0: no limit on the whole request (the body stall timeout still applies).
  requestTimeoutMs: {
    type: 'integer',
    minimum: 0,
    maximum: 86_400_000,
    default: DEFAULT_CONNECTION_LIMITS.requestTimeoutMs,
    env: 'TRIAD_REQUEST_TIMEOUT_MS',
  },
  bodyStallTimeoutMs: {
    type: 'integer',
    minimum: 100,
    maximum: 3_600_000,
    default: DEFAULT_CONNECTION_LIMITS.bodyStallTimeoutMs,
    env: 'TRIAD_BODY_STALL_TIMEOUT_MS',
  },
  keepAliveTimeoutMs: {
    type: 'integer',
    minimum: 100,
    maximum: 3_600_000,
    default: DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs,
    env: 'TRIAD_KEEP_ALIVE_TIMEOUT_MS',
  },
  // 0: no limit (behind a proxy, which then limits clients itself).
  maxConnectionsPerClient: {
    type: 'integer',
    minimum: 0,
    maximum: 1_000_000,
    default: DEFAULT_CONNECTION_LIMITS.maxConnectionsPerClient,
    env: 'TRIAD_MAX_CONNECTIONS_PER_CLIENT',
  },
} as const;

/** The `ServiceSettings` a config schema must list in `required`. */
export const REQUIRED_SERVICE_SETTINGS = ['host', 'port', 'dataDir', 'demo', 'logLevel'] as const;

/**
 * The config-schema properties of `ServiceSettings`, to spread into a service's schema. Host and
 * port are read from `<envPrefix>_HOST` and `<envPrefix>_PORT`; the others from variables all
 * services share (`TRIAD_DATA_DIR`, `DATABASE_URL`, `DATABASE_READ_URL` (comma-separated),
 * `TRIAD_DEMO`, `TRIAD_LOG_LEVEL`, `TRIAD_LOG_FORMAT`). Default host `127.0.0.1`, data directory
 * `./data`, log level `info`. The connection limits (`ConnectionLimits`) come from
 * `TRIAD_HEADERS_TIMEOUT_MS`, `TRIAD_REQUEST_TIMEOUT_MS`, `TRIAD_BODY_STALL_TIMEOUT_MS`,
 * `TRIAD_KEEP_ALIVE_TIMEOUT_MS` and `TRIAD_MAX_CONNECTIONS_PER_CLIENT`, defaults in
 * `DEFAULT_CONNECTION_LIMITS`.
 */
export function serviceSettingsProperties<Prefix extends string>(options: {
  readonly envPrefix: Prefix;
  readonly port: number;
  readonly demo: boolean;
}) {
  return {
    host: { type: 'string', minLength: 1, default: '127.0.0.1', env: `${options.envPrefix}_HOST` },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: options.port, env: `${options.envPrefix}_PORT` },
    dataDir: { type: 'string', minLength: 1, default: './data', env: 'TRIAD_DATA_DIR' },
    databaseUrl: { type: 'string', pattern: '^postgres(ql)?://', env: 'DATABASE_URL' },
    databaseReadUrls: {
      type: 'array',
      items: { type: 'string', pattern: POSTGRES_URL_ITEM },
      env: 'DATABASE_READ_URL',
    },
    demo: { type: 'boolean', default: options.demo, env: 'TRIAD_DEMO' },
    logLevel: {
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      env: 'TRIAD_LOG_LEVEL',
    },
    logFormat: { type: 'string', enum: ['pretty', 'json'], env: 'TRIAD_LOG_FORMAT' },
    ...CONNECTION_LIMIT_PROPERTIES,
  } as const;
}
