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

/**
 * The template service's settings, validated and frozen. The lease settings (`LeaseSettings`,
 * `TRIAD_TEMPLATES_INSTANCE_ID`, `TRIAD_TEMPLATES_LEASE_TTL_MS`, `TRIAD_TEMPLATES_LEASE_HEARTBEAT_MS`)
 * share the devices among the instances of one PostgreSQL database: a device stays with an
 * instance that stopped renewing its lease for `leaseTtlMs`, so takeover after a crash takes about
 * `leaseTtlMs + leaseHeartbeatMs`. `instanceId` also names the instance in `GET /healthz` and the
 * logs; default `<host>-<pid>-<random>`, new at every start.
 */
export interface TemplatesConfig extends ServiceSettings, LeaseSettings {
  /** Folder of example templates to seed; default the device-templates package's `examples/`. */
  readonly seedDir?: string;
  /** Largest body of ordinary routes, bytes. */
  readonly bodyLimit: number;
  /** Largest template source (writes and /validate), bytes. */
  readonly sourceBodyLimit: number;
  /** Most nesting levels of a JSON body. */
  readonly maxJsonDepth: number;
  /** `TRIAD_TEMPLATES_ADMIN_TOKEN`: a bootstrap bearer token with the admin scope. */
  readonly adminToken?: string;
  /** `token`: every write needs a bearer token of scope write or admin; `open`: anyone may write. */
  readonly writeAccess: 'open' | 'token';
  /** `open`: anyone may read the registry; `token`: reads need a token of scope read or more. */
  readonly readAccess: 'open' | 'token';
  /**
   * `TRIAD_DEVICES_READ_ACCESS`: `token` (default): reading devices (list, one, values, alarms,
   * events, stream) needs a token of scope read or more; `open`: anyone may.
   */
  readonly devicesReadAccess: 'open' | 'token';
  /** `TRIAD_DEVICES_ALLOW`: CIDR blocks and host names devices may reach (docs/devices.md); default any not refused. */
  readonly devicesAllow: string;
  /** `TRIAD_DEVICES_DENY`: CIDR blocks and host names devices may never reach; wins over the allow list. */
  readonly devicesDeny: string;
  /**
   * `TRIAD_DEVICES_SERVICE_PORTS`: Triad's service ports on this host, refused to devices on
   * loopback and the host's own addresses (besides the ports the services actually listen on).
   */
  readonly devicesServicePorts: string;
  /** `TRIAD_SECRET_KEY`: key of device credentials at rest; default a key file in the data directory. */
  readonly secretKey?: string;
  /** Collect from devices (false: devices are stored and served, nothing is read). */
  readonly collectDevices: boolean;
  /** Device reads running at once, across all devices. */
  readonly maxConcurrentReads: number;
  /** `TRIAD_MQTT_URL`: the broker of MQTT devices that name none (default mqtt://127.0.0.1:1883). */
  readonly mqttUrl?: string;
  /**
   * `TRIAD_MIB_DIRS`: directories of MIB modules (colon-separated), read before the system's for
   * MIB names in SNMP addresses (docs/devices.md, "MIB names").
   */
  readonly mibDirs?: string;
  /** `TRIAD_SNMP_TRAP_PORT`: UDP port of the SNMP trap and inform receiver; off when unset. */
  readonly snmpTrapPort?: number;
  /** `TRIAD_SNMP_TRAP_ADDRESS`: address the trap receiver binds (default all IPv4 addresses). */
  readonly snmpTrapAddress: string;
  /** `TRIAD_DEVICE_HISTORY`: keep every collected value (decision 0050); false keeps none. */
  readonly historyEnabled: boolean;
  /** `TRIAD_DEVICE_HISTORY_RAW_MS`: how long raw values are kept, ms. */
  readonly historyRawRetentionMs: number;
  /** `TRIAD_DEVICE_HISTORY_MINUTE_MS`: how long per-minute min/max/avg/count are kept, ms. */
  readonly historyMinuteRetentionMs: number;
  /** `TRIAD_DEVICE_HISTORY_QUEUE`: most values waiting to be written; more are dropped and counted. */
  readonly historyQueueLimit: number;
  /** `TRIAD_DEVICE_HISTORY_FLUSH_MS`: time between history writes, ms. */
  readonly historyFlushMs: number;
  /** `TRIAD_DEVICE_METRICS_MAX_SERIES`: most `triad_device_value` series on `/metrics`. */
  readonly metricsMaxSeries: number;
}

/** Settings a caller (CLI, tests) may pass over the environment. */
export type TemplatesConfigOverrides = Partial<TemplatesConfig>;

/** Schema and defaults, one place; `env` names the variable feeding each setting. */
export const templatesConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    ...REQUIRED_SERVICE_SETTINGS,
    'bodyLimit',
    'sourceBodyLimit',
    'maxJsonDepth',
    'collectDevices',
    'maxConcurrentReads',
    'writeAccess',
    'readAccess',
    'devicesReadAccess',
    'devicesAllow',
    'devicesDeny',
    'devicesServicePorts',
    'historyEnabled',
    'historyRawRetentionMs',
    'historyMinuteRetentionMs',
    'historyQueueLimit',
    'historyFlushMs',
    'metricsMaxSeries',
    ...REQUIRED_LEASE_SETTINGS,
  ],
  properties: {
    ...serviceSettingsProperties({ envPrefix: 'TRIAD_TEMPLATES', port: 8082, demo: true }),
    seedDir: { type: 'string', minLength: 1, env: 'TRIAD_TEMPLATES_SEED_DIR' },
    bodyLimit: { type: 'integer', minimum: 1024, default: 1_048_576, env: 'TRIAD_TEMPLATES_BODY_LIMIT' }, // 1 MiB
    // 8 MiB
    sourceBodyLimit: { type: 'integer', minimum: 1024, default: 8_388_608, env: 'TRIAD_TEMPLATES_SOURCE_BODY_LIMIT' },
    maxJsonDepth: { type: 'integer', minimum: 8, maximum: 1000, default: 64, env: 'TRIAD_MAX_JSON_DEPTH' },
    adminToken: { type: 'string', minLength: 16, maxLength: 200, env: 'TRIAD_TEMPLATES_ADMIN_TOKEN' },
    secretKey: { type: 'string', minLength: 1, maxLength: 200, env: 'TRIAD_SECRET_KEY' },
    collectDevices: { type: 'boolean', default: true, env: 'TRIAD_TEMPLATES_COLLECT' },
    writeAccess: { type: 'string', enum: ['open', 'token'], default: 'token', env: 'TRIAD_TEMPLATES_WRITE_ACCESS' },
    readAccess: { type: 'string', enum: ['open', 'token'], default: 'open', env: 'TRIAD_TEMPLATES_READ_ACCESS' },
    devicesReadAccess: { type: 'string', enum: ['open', 'token'], default: 'token', env: 'TRIAD_DEVICES_READ_ACCESS' },
    devicesAllow: { type: 'string', maxLength: 20_000, default: '', env: 'TRIAD_DEVICES_ALLOW' },
    devicesDeny: { type: 'string', maxLength: 20_000, default: '', env: 'TRIAD_DEVICES_DENY' },
    devicesServicePorts: {
      type: 'string',
      pattern: '^\\s*(\\d{1,5}\\s*(,\\s*\\d{1,5}\\s*)*)?$',
      default: '8080,8081,8082',
      env: 'TRIAD_DEVICES_SERVICE_PORTS',
    },
    maxConcurrentReads: { type: 'integer', minimum: 1, maximum: 10_000, default: 256, env: 'TRIAD_DEVICE_READS' },
    mqttUrl: { type: 'string', pattern: '^(mqtts?|wss?)://[^\\s]+$', maxLength: 2000, env: 'TRIAD_MQTT_URL' },
    mibDirs: { type: 'string', maxLength: 20_000, env: 'TRIAD_MIB_DIRS' },
    snmpTrapPort: { type: 'integer', minimum: 1, maximum: 65_535, env: 'TRIAD_SNMP_TRAP_PORT' },
    snmpTrapAddress: {
      type: 'string',
      pattern: '^(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}$',
      default: '0.0.0.0',
      env: 'TRIAD_SNMP_TRAP_ADDRESS',
    },
    historyEnabled: { type: 'boolean', default: true, env: 'TRIAD_DEVICE_HISTORY' },
    historyRawRetentionMs: {
      type: 'integer',
      minimum: 60_000, // 1 min
      default: 86_400_000, // 24 h
      env: 'TRIAD_DEVICE_HISTORY_RAW_MS',
    },
    historyMinuteRetentionMs: {
      type: 'integer',
      minimum: 60_000, // 1 min
      default: 2_592_000_000, // 30 days
      env: 'TRIAD_DEVICE_HISTORY_MINUTE_MS',
    },
    // values
    historyQueueLimit: { type: 'integer', minimum: 100, default: 200_000, env: 'TRIAD_DEVICE_HISTORY_QUEUE' },
    // 1 s
    historyFlushMs: {
      type: 'integer',
      minimum: 10,
      maximum: 60_000,
      default: 1_000,
      env: 'TRIAD_DEVICE_HISTORY_FLUSH_MS',
    },
    // series
    metricsMaxSeries: { type: 'integer', minimum: 0, default: 10_000, env: 'TRIAD_DEVICE_METRICS_MAX_SERIES' },
    ...leaseSettingsProperties({ envPrefix: 'TRIAD_TEMPLATES', heartbeatMaximumMs: 300_000 }),
  },
} as const;

const loadSettings = serviceConfigLoader<TemplatesConfig>(templatesConfigSchema, () => process.env);

/**
 * Reads the settings: `(env = process.env, overrides, fallbacks)`, layered as
 * `serviceConfigLoader` says, then checks that the lease heartbeat is at most a third of the
 * lease time. This module is the service's only reader of `process.env`.
 *
 * @throws ConfigError listing every invalid setting.
 */
export const loadTemplatesConfig: typeof loadSettings = (env, overrides, fallbacks) => {
  const config = loadSettings(env, overrides, fallbacks);
  checkLeaseSettings(config, 'TRIAD_TEMPLATES');
  const violations = [
    ...(['devicesAllow', 'devicesDeny'] as const).flatMap((key) =>
      parseAddressList(config[key]).problems.map((message) => ({
        path: `/${key}`,
        env: key === 'devicesAllow' ? 'TRIAD_DEVICES_ALLOW' : 'TRIAD_DEVICES_DENY',
        message,
      })),
    ),
    ...servicePorts(config)
      .filter((port) => port < 1 || port > 65_535)
      .map((port) => ({
        path: '/devicesServicePorts',
        env: 'TRIAD_DEVICES_SERVICE_PORTS',
        message: `${port} is not a port (1 to 65535)`,
      })),
  ];
  if (violations.length > 0) throw new ConfigError(violations);
  return config;
};

/** `devicesServicePorts` as numbers. */
export function servicePorts(config: Pick<TemplatesConfig, 'devicesServicePorts'>): number[] {
  return config.devicesServicePorts
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);
}
