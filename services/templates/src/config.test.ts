import { describe, expect, it } from 'vitest';
import { ConfigError } from '@triad/service-kit';
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
      maxJsonDepth: 64,
    });
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
});
