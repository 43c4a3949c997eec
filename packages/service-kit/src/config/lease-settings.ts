import { ConfigError } from './config-error.js';

/** The settings of a service whose instances share their work through leases (PostgreSQL, several instances). */
export interface LeaseSettings {
  /** This instance's name among the instances of one database; must differ between instances. */
  readonly instanceId?: string;
  /** How long work stays with an instance that stopped renewing its lease, ms. */
  readonly leaseTtlMs: number;
  /** How often an instance renews its leases and rebalances, ms; at most a third of `leaseTtlMs`. */
  readonly leaseHeartbeatMs: number;
}

/** The `LeaseSettings` a config schema must list in `required`. */
export const REQUIRED_LEASE_SETTINGS = ['leaseTtlMs', 'leaseHeartbeatMs'] as const;

/**
 * The config-schema properties of `LeaseSettings`, to spread into a service's schema, read from
 * `<envPrefix>_INSTANCE_ID`, `<envPrefix>_LEASE_TTL_MS` (default 15 s, 1 s to 10 min) and
 * `<envPrefix>_LEASE_HEARTBEAT_MS` (default 3 s, 100 ms to `heartbeatMaximumMs`, default 200 s).
 * Check the loaded settings with `checkLeaseSettings`.
 */
export function leaseSettingsProperties<Prefix extends string>(options: {
  readonly envPrefix: Prefix;
  readonly heartbeatMaximumMs?: number;
}) {
  return {
    instanceId: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,100}$', env: `${options.envPrefix}_INSTANCE_ID` },
    leaseTtlMs: {
      type: 'integer',
      minimum: 1000,
      maximum: 600_000,
      default: 15_000,
      env: `${options.envPrefix}_LEASE_TTL_MS`,
    },
    leaseHeartbeatMs: {
      type: 'integer',
      minimum: 100,
      maximum: options.heartbeatMaximumMs ?? 200_000,
      default: 3_000,
      env: `${options.envPrefix}_LEASE_HEARTBEAT_MS`,
    },
  } as const;
}

/**
 * Checks what the schema cannot: the lease heartbeat is at most a third of the lease time (an
 * instance drops its work after failing to renew for ttl − heartbeat: room for two missed beats).
 *
 * @throws ConfigError naming `<envPrefix>_LEASE_HEARTBEAT_MS` otherwise.
 */
export function checkLeaseSettings(settings: LeaseSettings, envPrefix: string): void {
  if (settings.leaseHeartbeatMs * 3 > settings.leaseTtlMs)
    throw new ConfigError([
      {
        path: '/leaseHeartbeatMs',
        env: `${envPrefix}_LEASE_HEARTBEAT_MS`,
        message: `must be at most a third of leaseTtlMs (${envPrefix}_LEASE_TTL_MS)`,
      },
    ]);
}
