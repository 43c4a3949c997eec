import { parseAddressList } from '@triad/device-drivers';
import {
  checkLeaseSettings,
  ConfigError,
  leaseSettingsProperties,
  REQUIRED_LEASE_SETTINGS,
  REQUIRED_SERVICE_SETTINGS,
  serviceConfigLoader,
  serviceSettingsProperties,
  type LeaseSettings,
  type ServiceSettings,
} from '@triad/service-kit';
import { LIMIT_THRESHOLD_ENTRY } from './model/limit-thresholds.js';
import { SYSTEM_MONITOR_ENTRY } from './model/system-monitor-settings.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './model/roles.js';

/**
 * The node manager's settings, validated and frozen. The lease settings (`LeaseSettings`,
 * `TRIAD_NODE_MANAGER_INSTANCE_ID`, `_LEASE_TTL_MS`, `_LEASE_HEARTBEAT_MS`) share the managed nodes
 * between the instances of one PostgreSQL database; `instanceId` also names the instance in
 * `GET /healthz` and the logs.
 */
export interface NodeManagerConfig extends ServiceSettings, LeaseSettings {
  /**
   * Start and manage a demo Erlang node (`triad_demo_<hash of the data directory>`, one per
   * installation) when `erl` is installed and no other node is stored (`demo/demo-node.ts`). Off by
   * default; `triad serve` turns it on unless `--no-demo`.
   */
  readonly demo: boolean;
  /** Largest request body, bytes. */
  readonly bodyLimit: number;
  /** Most nesting levels of a JSON body. */
  readonly maxJsonDepth: number;
  /** HTTP Basic authentication on every call (`GET /api/users/auth_status` reports it). */
  readonly authentication: boolean;
  /**
   * Key sealing node cookies at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64. When
   * absent, `<dataDir>/node-manager.key` is used, created (0600) on first start.
   */
  readonly secretKey?: string;
  /** Password of the `admin` user created on first start; generated (and reported once) when absent. */
  readonly adminPassword?: string;
  /** Tags that filter alarms while authentication is off, and that new users start with: `all` or a comma list. */
  readonly defaultUserTags: string;
  /** scrypt cost parameter N (power of two); lower it only in tests. */
  readonly scryptCost: number;
  /**
   * Most password hashes (scrypt) computed at once; the others queue. 0: one less than the cores,
   * at least 1, so a burst of sign-ins always leaves a core to the other requests.
   */
  readonly passwordHashConcurrency: number;
  /**
   * Sign-in password checks waiting for a turn at most; one more answers 503 `sign_in_busy` at
   * once. 0: 64 per hash run at a time (about 3 s of checks at the default cost).
   */
  readonly passwordHashQueue: number;
  /** How long a WebSocket pass stays valid, ms. */
  readonly wsPassTtlMs: number;
  /** How long a WebSocket may stay open without a valid auth frame before it is closed with 4401, ms. */
  readonly wsAuthTimeoutMs: number;
  /**
   * Also accept, as a WebSocket pass, the MD5 hex of the username followed by `wsMd5PassSalt`
   * (what WombatOAM's published load-test client computes itself). Off by default: anyone who knows
   * the salt can open a live feed as any existing user (docs/node-manager.md, decision 0015).
   */
  readonly wsMd5Pass: boolean;
  /** The salt of the MD5 pass form; used only with `wsMd5Pass`. */
  readonly wsMd5PassSalt: string;
  /**
   * How often the users of open live sockets are read again, ms: a socket whose user was changed
   * or deleted by another process (the `triad users` CLI) is closed within this time. Changes made
   * through any instance close the sockets at once.
   */
  readonly wsSessionRecheckMs: number;
  /**
   * How long a signed-in user's stored record is reused before it is read again, ms. Changes made
   * through this service apply at once; this bounds how late one made by another process on the
   * same database (the `triad users` CLI) is seen. 0 reads it on every request.
   */
  readonly userRecheckMs: number;
  /** How long a managed node must stay out of UP before its `node_down` alarm is raised, ms. */
  readonly nodeDownAlarmAfterMs: number;
  /** How often the SASL alarm collector reads `alarm_handler:get_alarms()` of each UP node, ms. */
  readonly alarmPollMs: number;
  /** Most log entries kept per node (`GET /api/logs/node/{node_id}`); older ones are dropped. */
  readonly logsPerNode: number;
  /** How often the kernel metrics collector samples each UP node, ms. */
  readonly metricsPollMs: number;
  /** How long the metric history keeps every sample, ms. */
  readonly metricsRawRetentionMs: number;
  /** How long the metric history keeps per-minute averages, ms (longer than the raw retention). */
  readonly metricsMinuteRetentionMs: number;
  /** How often the system-limit alarms read each UP node, ms. */
  readonly limitAlarmPollMs: number;
  /**
   * Overrides of the system-limit alarm thresholds: a comma list of
   * `<family>[@<node family name>]=<minor>/<major>` (`model/limit-thresholds.ts`); empty keeps
   * WombatOAM's 70/85 % and 5,000/20,000 messages.
   */
  readonly limitAlarmThresholds: string;
  /**
   * The `erlang:system_monitor` alarms: `off`, or a comma list of
   * `<kind>[@<node family name>]=<value>` (`model/system-monitor-settings.ts`); empty keeps the
   * defaults (500 ms garbage collections and runs, 256 MB heaps, busy ports).
   */
  readonly systemMonitorAlarms: string;
  /** Time limit of each explorer RPC (`/api/explorer/...`), ms. */
  readonly explorerTimeoutMs: number;
  /** Explorer calls in flight on one node at most, per instance; one more is answered 429 `explorer_busy`. */
  readonly explorerCallsPerNode: number;
  /** Alarm notifications (docs/decisions/0043): hosts reachable although loopback or private, `TRIAD_NOTIFY_ALLOW`. */
  readonly notifyAllow: string;
  /** Hosts notifications never reach, `TRIAD_NOTIFY_DENY`. */
  readonly notifyDeny: string;
  /** Time limit of one delivery attempt (HTTP exchange or SMTP session), ms. */
  readonly notifyTimeoutMs: number;
  /** Attempts before a notification is `failed`. */
  readonly notifyMaxAttempts: number;
  /** Wait after the first failed attempt, ms; doubled after each further one (at most 1 h). */
  readonly notifyRetryBaseMs: number;
  /** How often each instance reads the outbox for due notifications, ms. */
  readonly notifyPollMs: number;
  /**
   * Run as the named, visible Erlang node `alive@host` (`TRIAD_NODE_NAME`): register with the local
   * EPMD, accept distribution connections and answer WombatOAM's discovery call
   * (`discovery/`, docs/node-manager.md "Nodes that register themselves"). Off when absent.
   */
  readonly nodeName?: string;
  /** The cookie nodes must have to connect to `nodeName`; required with it. */
  readonly nodeCookie?: string;
  /** Distribution port of `nodeName`; 0 picks a free one (peers find it through EPMD). */
  readonly nodePort: number;
  /** Address the distribution port listens on. */
  readonly nodeListenAddress: string;
  /** Family of nodes that register themselves (created when missing); empty: the family of their release. */
  readonly discoveryFamily: string;
  /** Nodes added by self-registration per minute at most; more calls are answered `{error, busy}`. */
  readonly discoveryPerMinute: number;
  /** Distribution connections open at once at most (handshaking or up); more are closed at once. */
  readonly nodeMaxConnections: number;
  /**
   * EPMD's port on this machine and on the managed nodes' hosts (`ERL_EPMD_PORT`, as Erlang reads it):
   * self-registration registers there and connections to nodes look their ports up there.
   */
  readonly epmdPort: number;
}

/** Settings a caller (CLI, tests) may pass over the environment. */
export type NodeManagerConfigOverrides = Partial<NodeManagerConfig>;

/** Schema and defaults, one place; `env` names the variable feeding each setting. */
export const nodeManagerConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    ...REQUIRED_SERVICE_SETTINGS,
    'bodyLimit',
    'maxJsonDepth',
    'authentication',
    'defaultUserTags',
    'scryptCost',
    'passwordHashConcurrency',
    'passwordHashQueue',
    'wsPassTtlMs',
    'wsAuthTimeoutMs',
    'wsMd5Pass',
    'wsMd5PassSalt',
    'wsSessionRecheckMs',
    'userRecheckMs',
    'nodeDownAlarmAfterMs',
    'alarmPollMs',
    'logsPerNode',
    'metricsPollMs',
    'metricsRawRetentionMs',
    'metricsMinuteRetentionMs',
    'limitAlarmPollMs',
    'limitAlarmThresholds',
    'systemMonitorAlarms',
    'explorerTimeoutMs',
    'explorerCallsPerNode',
    'notifyAllow',
    'notifyDeny',
    'notifyTimeoutMs',
    'notifyMaxAttempts',
    'notifyRetryBaseMs',
    'notifyPollMs',
    'nodePort',
    'nodeListenAddress',
    'discoveryFamily',
    'discoveryPerMinute',
    'nodeMaxConnections',
    'epmdPort',
    ...REQUIRED_LEASE_SETTINGS,
  ],
  properties: {
    ...serviceSettingsProperties({ envPrefix: 'TRIAD_NODE_MANAGER', port: 8080, demo: false }),
    bodyLimit: { type: 'integer', minimum: 1024, default: 262_144, env: 'TRIAD_NODE_MANAGER_BODY_LIMIT' }, // 256 KiB
    maxJsonDepth: { type: 'integer', minimum: 8, maximum: 1000, default: 32, env: 'TRIAD_MAX_JSON_DEPTH' },
    authentication: { type: 'boolean', default: true, env: 'TRIAD_NODE_MANAGER_AUTH' },
    secretKey: { type: 'string', minLength: 1, maxLength: 200, env: 'TRIAD_SECRET_KEY' },
    // The one minimum of the API and the CLI (model/roles.ts MIN_PASSWORD_LENGTH).
    adminPassword: {
      type: 'string',
      minLength: MIN_PASSWORD_LENGTH,
      maxLength: MAX_PASSWORD_LENGTH,
      pattern: '^[A-Za-z0-9]+$',
      env: 'TRIAD_ADMIN_PASSWORD',
    },
    defaultUserTags: {
      type: 'string',
      pattern: '^(all|[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*)$',
      default: 'all',
      env: 'TRIAD_DEFAULT_USER_TAGS',
    },
    scryptCost: { type: 'integer', minimum: 2, maximum: 1_048_576, default: 16_384, env: 'TRIAD_SCRYPT_COST' },
    passwordHashConcurrency: {
      type: 'integer',
      minimum: 0,
      maximum: 256,
      default: 0,
      env: 'TRIAD_PASSWORD_HASH_CONCURRENCY',
    },
    passwordHashQueue: { type: 'integer', minimum: 0, maximum: 100_000, default: 0, env: 'TRIAD_PASSWORD_HASH_QUEUE' },
    wsPassTtlMs: { type: 'integer', minimum: 1000, default: 86_400_000, env: 'TRIAD_WS_PASS_TTL_MS' }, // 24 h
    // 10 s
    wsAuthTimeoutMs: {
      type: 'integer',
      minimum: 1,
      maximum: 600_000,
      default: 10_000,
      env: 'TRIAD_WS_AUTH_TIMEOUT_MS',
    },
    wsMd5Pass: { type: 'boolean', default: false, env: 'TRIAD_WS_MD5_PASS' },
    wsMd5PassSalt: { type: 'string', maxLength: 256, default: '', env: 'TRIAD_WS_MD5_PASS_SALT' },
    // 5 s
    wsSessionRecheckMs: {
      type: 'integer',
      minimum: 10,
      maximum: 600_000,
      default: 5_000,
      env: 'TRIAD_WS_SESSION_RECHECK_MS',
    },
    // 1 s
    userRecheckMs: { type: 'integer', minimum: 0, maximum: 60_000, default: 1_000, env: 'TRIAD_USER_RECHECK_MS' },
    nodeDownAlarmAfterMs: {
      type: 'integer',
      minimum: 0,
      maximum: 86_400_000,
      default: 30_000,
      env: 'TRIAD_NODE_DOWN_ALARM_AFTER_MS',
    }, // 30 s
    // 5 s
    alarmPollMs: { type: 'integer', minimum: 50, maximum: 3_600_000, default: 5_000, env: 'TRIAD_ALARM_POLL_MS' },
    logsPerNode: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1_000, env: 'TRIAD_NODE_LOGS_PER_NODE' },
    // 15 s
    metricsPollMs: { type: 'integer', minimum: 50, maximum: 3_600_000, default: 15_000, env: 'TRIAD_METRICS_POLL_MS' },
    metricsRawRetentionMs: {
      type: 'integer',
      minimum: 1000,
      default: 86_400_000,
      env: 'TRIAD_METRICS_RAW_RETENTION_MS',
    }, // 24 h
    metricsMinuteRetentionMs: {
      type: 'integer',
      minimum: 1000,
      default: 2_592_000_000,
      env: 'TRIAD_METRICS_MINUTE_RETENTION_MS',
    }, // 30 days
    limitAlarmPollMs: {
      type: 'integer',
      minimum: 50,
      maximum: 3_600_000,
      default: 15_000,
      env: 'TRIAD_LIMIT_ALARM_POLL_MS',
    }, // 15 s
    limitAlarmThresholds: {
      type: 'string',
      pattern: `^(${LIMIT_THRESHOLD_ENTRY}(,${LIMIT_THRESHOLD_ENTRY})*)?$`,
      default: '',
      env: 'TRIAD_LIMIT_ALARM_THRESHOLDS',
    },
    systemMonitorAlarms: {
      type: 'string',
      pattern: `^(off|${SYSTEM_MONITOR_ENTRY}(,${SYSTEM_MONITOR_ENTRY})*)?$`,
      default: '',
      env: 'TRIAD_SYSTEM_MONITOR_ALARMS',
    },
    explorerTimeoutMs: {
      type: 'integer',
      minimum: 100,
      maximum: 60_000,
      default: 5_000,
      env: 'TRIAD_EXPLORER_TIMEOUT_MS',
    }, // 5 s
    explorerCallsPerNode: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 2,
      env: 'TRIAD_EXPLORER_CALLS_PER_NODE',
    },
    notifyAllow: { type: 'string', maxLength: 20_000, default: '', env: 'TRIAD_NOTIFY_ALLOW' },
    notifyDeny: { type: 'string', maxLength: 20_000, default: '', env: 'TRIAD_NOTIFY_DENY' },
    // 10 s
    notifyTimeoutMs: {
      type: 'integer',
      minimum: 100,
      maximum: 120_000,
      default: 10_000,
      env: 'TRIAD_NOTIFY_TIMEOUT_MS',
    },
    notifyMaxAttempts: { type: 'integer', minimum: 1, maximum: 50, default: 8, env: 'TRIAD_NOTIFY_MAX_ATTEMPTS' },
    // 10 s
    notifyRetryBaseMs: {
      type: 'integer',
      minimum: 10,
      maximum: 3_600_000,
      default: 10_000,
      env: 'TRIAD_NOTIFY_RETRY_BASE_MS',
    },
    // 5 s
    notifyPollMs: { type: 'integer', minimum: 10, maximum: 600_000, default: 5_000, env: 'TRIAD_NOTIFY_POLL_MS' },
    nodeName: {
      type: 'string',
      maxLength: 255,
      pattern: '^[0-9A-Za-z_-]+@[0-9A-Za-z_.-]+$',
      env: 'TRIAD_NODE_NAME',
    },
    nodeCookie: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$', env: 'TRIAD_NODE_COOKIE' },
    nodePort: { type: 'integer', minimum: 0, maximum: 65_535, default: 0, env: 'TRIAD_NODE_PORT' },
    nodeListenAddress: { type: 'string', minLength: 1, default: '0.0.0.0', env: 'TRIAD_NODE_LISTEN_ADDRESS' },
    discoveryFamily: { type: 'string', maxLength: 255, default: '', env: 'TRIAD_DISCOVERY_FAMILY' },
    discoveryPerMinute: {
      type: 'integer',
      minimum: 1,
      maximum: 100_000,
      default: 600,
      env: 'TRIAD_DISCOVERY_PER_MINUTE',
    },
    nodeMaxConnections: {
      type: 'integer',
      minimum: 1,
      maximum: 65_536,
      default: 1_024,
      env: 'TRIAD_NODE_MAX_CONNECTIONS',
    },
    epmdPort: { type: 'integer', minimum: 1, maximum: 65_535, default: 4369, env: 'ERL_EPMD_PORT' },
    ...leaseSettingsProperties({ envPrefix: 'TRIAD_NODE_MANAGER' }),
  },
} as const;

const loadSettings = serviceConfigLoader<NodeManagerConfig>(nodeManagerConfigSchema, () => process.env);

/**
 * Reads the settings: `(env = process.env, overrides, fallbacks)`, layered as
 * `serviceConfigLoader` says, then checks that the lease heartbeat is at most a third of the
 * lease time. This module is the service's only reader of `process.env`.
 *
 * @throws ConfigError listing every invalid setting.
 */
export const loadNodeManagerConfig: typeof loadSettings = (env, overrides, fallbacks) => {
  const config = loadSettings(env, overrides, fallbacks);
  checkLeaseSettings(config, 'TRIAD_NODE_MANAGER');
  const violations = (['notifyAllow', 'notifyDeny'] as const).flatMap((key) =>
    parseAddressList(config[key]).problems.map((message) => ({
      path: `/${key}`,
      env: key === 'notifyAllow' ? 'TRIAD_NOTIFY_ALLOW' : 'TRIAD_NOTIFY_DENY',
      message,
    })),
  );
  if (violations.length > 0) throw new ConfigError(violations);
  if (config.nodeName !== undefined && config.nodeCookie === undefined)
    throw new ConfigError([
      { path: '/nodeCookie', env: 'TRIAD_NODE_COOKIE', message: 'is required with TRIAD_NODE_NAME' },
    ]);
  return config;
};

/** `defaultUserTags` as the filter it stands for: `'all'` or a list of tags. */
export function parseTagSetting(value: string): 'all' | string[] {
  return value === 'all' ? 'all' : value.split(',').filter((t) => t !== '');
}
