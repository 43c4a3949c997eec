import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import {
  checkLeaseSettings,
  leaseSettingsProperties,
  REQUIRED_LEASE_SETTINGS,
  type LeaseSettings,
} from './lease-settings.js';
import { serviceConfigLoader } from './load-config.js';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: [...REQUIRED_LEASE_SETTINGS],
  properties: leaseSettingsProperties({ envPrefix: 'TRIAD_X' }),
} as const;
const loadSettings = serviceConfigLoader<LeaseSettings>(schema, () => ({}));
const load = (env: Record<string, string>) => {
  const settings = loadSettings(env);
  checkLeaseSettings(settings, 'TRIAD_X');
  return settings;
};

describe('leaseSettingsProperties and checkLeaseSettings', () => {
  it('reads the instance id and lease times from <prefix>_ variables, 15 s and 3 s by default', () => {
    expect(load({})).toEqual({ leaseTtlMs: 15_000, leaseHeartbeatMs: 3_000 });
    expect(
      load({ TRIAD_X_INSTANCE_ID: 'x-1', TRIAD_X_LEASE_TTL_MS: '3000', TRIAD_X_LEASE_HEARTBEAT_MS: '1000' }),
    ).toEqual({ instanceId: 'x-1', leaseTtlMs: 3000, leaseHeartbeatMs: 1000 });
    expect(() => load({ TRIAD_X_INSTANCE_ID: 'a b' })).toThrow(/TRIAD_X_INSTANCE_ID/);
  });

  it('refuses a heartbeat over a third of the lease time, naming both variables', () => {
    const refuse = () => load({ TRIAD_X_LEASE_TTL_MS: '3000', TRIAD_X_LEASE_HEARTBEAT_MS: '1001' });
    expect(refuse).toThrow(ConfigError);
    expect(refuse).toThrow(/TRIAD_X_LEASE_HEARTBEAT_MS.*at most a third of leaseTtlMs \(TRIAD_X_LEASE_TTL_MS\)/);
  });
});
