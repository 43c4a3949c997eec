import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONNECTION_LIMITS } from '@triad/service-kit';
import { loadTemplatesConfig } from './config.js';

describe('loadTemplatesConfig', () => {
  it('defaults to 127.0.0.1:8082, ./data, demo on, 1 MiB and 8 MiB limits', () => {
    expect(loadTemplatesConfig({})).toEqual({
      host: '127.0.0.1',
      port: 8082,
      dataDir: './data',
      demo: true,
      logLevel: 'info',
      bodyLimit: 1_048_576,
      sourceBodyLimit: 8_388_608,
      snmpTrapAddress: '0.0.0.0',
      maxJsonDepth: 64,
      collectDevices: true,
      maxConcurrentReads: 256,
      writeAccess: 'token',
      readAccess: 'open',
      devicesReadAccess: 'token',
      devicesAllow: '',
      devicesDeny: '',
      devicesServicePorts: '8080,8081,8082',
      historyEnabled: true,
      historyRawRetentionMs: 86_400_000,
      historyMinuteRetentionMs: 2_592_000_000,
      historyQueueLimit: 200_000,
      historyFlushMs: 1_000,
      metricsMaxSeries: 10_000,
      leaseTtlMs: 15_000,
      leaseHeartbeatMs: 3000,
      ...DEFAULT_CONNECTION_LIMITS,
    });
  });

  it('reads the device history retention from the environment, refusing less than a minute', () => {
    const config = loadTemplatesConfig({ TRIAD_DEVICE_HISTORY_RAW_MS: '3600000', TRIAD_DEVICE_HISTORY: 'false' });
    expect(config.historyRawRetentionMs).toBe(3_600_000);
    expect(config.historyEnabled).toBe(false);
    expect(() => loadTemplatesConfig({ TRIAD_DEVICE_HISTORY_MINUTE_MS: '1000' })).toThrow(ConfigError);
  });

  it('reads the environment and lets overrides win', () => {
    const config = loadTemplatesConfig(
      {
        TRIAD_TEMPLATES_PORT: '9000',
        TRIAD_DATA_DIR: '/var/triad',
        DATABASE_URL: 'postgres://db/x',
        TRIAD_DEMO: 'false',
        TRIAD_LOG_LEVEL: '',
      },
      { port: 9100 },
    );
    expect(config).toMatchObject({
      port: 9100,
      dataDir: '/var/triad',
      databaseUrl: 'postgres://db/x',
      demo: false,
      logLevel: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the device address lists and refuses entries that are neither a block, an address nor a name', () => {
    const config = loadTemplatesConfig({
      TRIAD_DEVICES_ALLOW: '10.0.0.0/8, plc.example',
      TRIAD_DEVICES_DENY: '10.9.0.0/16',
      TRIAD_DEVICES_SERVICE_PORTS: '9000,9001',
      TRIAD_DEVICES_READ_ACCESS: 'open',
    });
    expect(config).toMatchObject({
      devicesAllow: '10.0.0.0/8, plc.example',
      devicesDeny: '10.9.0.0/16',
      devicesServicePorts: '9000,9001',
      devicesReadAccess: 'open',
    });
    let caught: unknown;
    try {
      loadTemplatesConfig({ TRIAD_DEVICES_DENY: '10.0.0.0/40', TRIAD_DEVICES_SERVICE_PORTS: '70000' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).violations.map((v) => v.env)).toEqual([
      'TRIAD_DEVICES_DENY',
      'TRIAD_DEVICES_SERVICE_PORTS',
    ]);
  });

  it('reports every bad variable at once by name', () => {
    let caught: unknown;
    try {
      loadTemplatesConfig({ TRIAD_TEMPLATES_PORT: 'eighty', DATABASE_URL: 'mysql://x', TRIAD_LOG_LEVEL: 'chatty' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).violations.map((v) => v.env).sort()).toEqual([
      'DATABASE_URL',
      'TRIAD_LOG_LEVEL',
      'TRIAD_TEMPLATES_PORT',
    ]);
  });

  it('ranks a port: override, then TRIAD_TEMPLATES_PORT, then a fallback, then 8082', () => {
    const env = { TRIAD_TEMPLATES_PORT: '9000' };
    expect(loadTemplatesConfig(env, { port: 9100 }, { port: 9200 }).port).toBe(9100);
    expect(loadTemplatesConfig(env, {}, { port: 9200 }).port).toBe(9000);
    expect(loadTemplatesConfig({}, {}, { port: 9200 }).port).toBe(9200);
    expect(loadTemplatesConfig({}, {}, {}).port).toBe(8082);
  });

  it('takes the log format from TRIAD_LOG_FORMAT, pretty or json only, and leaves it unset by default', () => {
    expect(loadTemplatesConfig({ TRIAD_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadTemplatesConfig({ TRIAD_LOG_FORMAT: 'json' }, { logFormat: 'pretty' }).logFormat).toBe('pretty');
    expect(loadTemplatesConfig({}).logFormat).toBeUndefined();
    expect(() => loadTemplatesConfig({ TRIAD_LOG_FORMAT: 'xml' })).toThrow(/TRIAD_LOG_FORMAT/);
  });

  it('reads the instance id and lease settings; refuses a heartbeat over a third of the lease time', () => {
    const env = { TRIAD_TEMPLATES_LEASE_TTL_MS: '3000', TRIAD_TEMPLATES_LEASE_HEARTBEAT_MS: '1000' };
    expect(loadTemplatesConfig(env)).toMatchObject({ leaseTtlMs: 3000, leaseHeartbeatMs: 1000 });
    expect(loadTemplatesConfig({ TRIAD_TEMPLATES_INSTANCE_ID: 'templates-a' }).instanceId).toBe('templates-a');
    expect(() => loadTemplatesConfig({ TRIAD_TEMPLATES_INSTANCE_ID: 'a b' })).toThrow(/TRIAD_TEMPLATES_INSTANCE_ID/);
    expect(() => loadTemplatesConfig({ ...env, TRIAD_TEMPLATES_LEASE_HEARTBEAT_MS: '1001' })).toThrow(
      /TRIAD_TEMPLATES_LEASE_HEARTBEAT_MS.*at most a third of leaseTtlMs \(TRIAD_TEMPLATES_LEASE_TTL_MS\)/,
    );
    expect(() => loadTemplatesConfig({ TRIAD_TEMPLATES_LEASE_TTL_MS: '500' })).toThrow(/TRIAD_TEMPLATES_LEASE_TTL_MS/);
  });
});
