import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig, serviceConfigLoader } from './load-config.js';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'port'],
  properties: {
    host: { type: 'string', minLength: 1, default: '127.0.0.1', env: 'HOST' },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 8082, env: 'PORT' },
    demo: { type: 'boolean', default: true, env: 'DEMO' },
    logLevel: { type: 'string', enum: ['info', 'debug'], default: 'info', env: 'LOG_LEVEL' },
    limits: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: { bodyBytes: { type: 'integer', minimum: 1, default: 1024 } },
    },
  },
} as const;

interface Config {
  host: string;
  port: number;
  demo: boolean;
  logLevel: string;
  limits: { bodyBytes: number };
}

describe('loadConfig', () => {
  it('fills defaults when nothing is given', () => {
    expect(loadConfig<Config>(schema)).toEqual({
      host: '127.0.0.1',
      port: 8082,
      demo: true,
      logLevel: 'info',
      limits: { bodyBytes: 1024 },
    });
  });

  it('coerces environment strings to the schema types', () => {
    const config = loadConfig<Config>(schema, { port: '9000', demo: 'false' });
    expect(config.port).toBe(9000);
    expect(config.demo).toBe(false);
  });

  it('lets later sources win and ignores undefined values', () => {
    const config = loadConfig<Config>(
      schema,
      { port: '9000', host: 'a' },
      { port: 9001, host: undefined },
      { limits: { bodyBytes: 5 } },
    );
    expect(config.port).toBe(9001);
    expect(config.host).toBe('a');
    expect(config.limits.bodyBytes).toBe(5);
  });

  it('reports every violation at once, naming the environment variable', () => {
    let caught: unknown;
    try {
      loadConfig<Config>(schema, { port: '70000', demo: 'perhaps', logLevel: 'loud', surprise: 1 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.code).toBe('SVC_ERR_CONFIG_INVALID');
    expect(error.violations.map((v) => v.path).sort()).toEqual(['/demo', '/logLevel', '/port', '/surprise']);
    expect(error.violations.find((v) => v.path === '/port')?.env).toBe('PORT');
    expect(error.message).toContain('PORT (/port)');
    expect(error.message).toContain('must be one of "info", "debug"');
    expect(error.message).not.toContain('70000');
  });

  it('returns a deep-frozen object', () => {
    const config = loadConfig<Config>(schema, {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.limits)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('does not let a source change the prototype', () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "port": 1}') as Record<string, unknown>;
    const config = loadConfig<Config>(schema, source);
    expect((config as unknown as { polluted?: boolean }).polluted).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('serviceConfigLoader', () => {
  const defaultEnv = { PORT: '9100', HOST: '0.0.0.0' };
  const flatSchema = { ...schema, properties: { ...schema.properties, limits: { type: 'object', env: 'LIMITS' } } };
  const load = serviceConfigLoader<Config>(flatSchema, () => defaultEnv);

  it('layers overrides over the environment over fallbacks over defaults', () => {
    const config = load({ PORT: '9200', DEMO: '' }, { host: 'override.example' }, { port: 9000, demo: false });
    expect(config.host).toBe('override.example');
    expect(config.port).toBe(9200);
    // An empty variable counts as unset, so the fallback shows through.
    expect(config.demo).toBe(false);
    expect(config.logLevel).toBe('info');
  });

  it('reads the default environment when none is given', () => {
    expect(load().port).toBe(9100);
    expect(load(undefined, {}, { port: 9000 }).port).toBe(9100);
    expect(load({}, {}, { port: 9000 }).port).toBe(9000);
  });

  it('names the variable of an invalid setting', () => {
    expect(() => load({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => load({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
