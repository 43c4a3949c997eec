import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from './load-config.js';

describe('settingsFromEnv', () => {
  const schema = {
    properties: { port: { env: 'X_PORT' }, host: { env: 'X_HOST' }, name: { env: 'X_NAME' }, internal: {} },
  };

  it('keys the variables the schema names by property, trimmed, and skips unset or blank ones', () => {
    expect(settingsFromEnv(schema, { X_PORT: ' 8080 ', X_HOST: '', X_NAME: '   ', OTHER: 'x' })).toEqual({
      port: '8080',
    });
  });

  it('ignores properties without an env name', () => {
    expect(settingsFromEnv(schema, { internal: 'x', X_NAME: 'svc' })).toEqual({ name: 'svc' });
  });

  it('splits the variable of an array setting at commas, trimming and dropping empty items', () => {
    const withList = { properties: { urls: { env: 'X_URLS', type: 'array' } } };
    expect(settingsFromEnv(withList, { X_URLS: ' a, b ,,c ' })).toEqual({ urls: ['a', 'b', 'c'] });
    expect(settingsFromEnv(withList, { X_URLS: ' , ' })).toEqual({ urls: [] });
  });
});
