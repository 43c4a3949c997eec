import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { serviceConfigLoader } from './load-config.js';
import { DEFAULT_CONNECTION_LIMITS } from '../connections/connection-limits.js';
import { REQUIRED_SERVICE_SETTINGS, serviceSettingsProperties, type ServiceSettings } from './service-settings.js';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: [...REQUIRED_SERVICE_SETTINGS],
  properties: serviceSettingsProperties({ envPrefix: 'TRIAD_X', port: 9000, demo: false }),
} as const;
const load = serviceConfigLoader<ServiceSettings>(schema, () => ({}));

describe('serviceSettingsProperties: read replicas', () => {
  it('reads DATABASE_READ_URL as a comma-separated list of PostgreSQL URLs', () => {
    const config = load({
      DATABASE_URL: 'postgres://app@primary/triad',
      DATABASE_READ_URL: ' postgres://app@replica-1/triad, postgresql://app@replica-2:5433/triad ,',
    });
    expect(config.databaseReadUrls).toEqual([
      'postgres://app@replica-1/triad',
      'postgresql://app@replica-2:5433/triad',
    ]);
    expect(Object.isFrozen(config.databaseReadUrls)).toBe(true);
  });

  it('leaves the setting unset without the variable, or when it is blank', () => {
    expect(load({ DATABASE_URL: 'postgres://app@primary/triad' }).databaseReadUrls).toBeUndefined();
    expect(load({ DATABASE_READ_URL: '  ' }).databaseReadUrls).toBeUndefined();
  });

  it('takes a list from a caller as it is', () => {
    expect(load({}, { databaseReadUrls: ['postgres://a/b'] }).databaseReadUrls).toEqual(['postgres://a/b']);
  });

  it('refuses a URL that is not PostgreSQL, naming the variable and the item but not the value', () => {
    let caught: unknown;
    try {
      load({ DATABASE_READ_URL: 'postgres://app@replica-1/triad,mysql://app:hunter22@replica-2/triad' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.violations.map((v) => [v.path, v.env])).toEqual([['/databaseReadUrls/1', 'DATABASE_READ_URL']]);
    expect(error.violations[0]?.message).toMatch(/^must match pattern/);
    expect(error.message).toContain('DATABASE_READ_URL (/databaseReadUrls/1)');
    expect(error.message).not.toContain('hunter22');
  });

  it('refuses a URL with a blank inside, as a list joined by something other than commas', () => {
    expect(() => load({ DATABASE_READ_URL: 'postgres://a/b postgres://c/d' })).toThrow(/DATABASE_READ_URL/);
  });
});

describe('serviceSettingsProperties: connection limits', () => {
  it('defaults every limit to DEFAULT_CONNECTION_LIMITS', () => {
    const config = load({});
    expect({
      headersTimeoutMs: config.headersTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      bodyStallTimeoutMs: config.bodyStallTimeoutMs,
      keepAliveTimeoutMs: config.keepAliveTimeoutMs,
      maxConnectionsPerClient: config.maxConnectionsPerClient,
    }).toEqual(DEFAULT_CONNECTION_LIMITS);
  });

  it('reads each limit from its variable, 0 turning off the request timeout and the connection limit', () => {
    const config = load({
      TRIAD_HEADERS_TIMEOUT_MS: '5000',
      TRIAD_REQUEST_TIMEOUT_MS: '0',
      TRIAD_BODY_STALL_TIMEOUT_MS: '10000',
      TRIAD_KEEP_ALIVE_TIMEOUT_MS: '65000',
      TRIAD_MAX_CONNECTIONS_PER_CLIENT: '0',
    });
    expect(config).toMatchObject({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 0,
      bodyStallTimeoutMs: 10000,
      keepAliveTimeoutMs: 65000,
      maxConnectionsPerClient: 0,
    });
  });

  it('refuses a stall timeout below 100 ms, naming the variable', () => {
    expect(() => load({ TRIAD_BODY_STALL_TIMEOUT_MS: '5' })).toThrow(/TRIAD_BODY_STALL_TIMEOUT_MS/);
  });
});
