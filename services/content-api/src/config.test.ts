import { describe, expect, it } from 'vitest';
import { loadContentApiConfig } from './config.js';

describe('loadContentApiConfig', () => {
  it('ranks a port: override, then TRIAD_CONTENT_PORT, then a fallback, then 8081', () => {
    const env = { TRIAD_CONTENT_PORT: '9000' };
    expect(loadContentApiConfig(env, { port: 9100 }, { port: 9200 }).port).toBe(9100);
    expect(loadContentApiConfig(env, {}, { port: 9200 }).port).toBe(9000);
    expect(loadContentApiConfig({ TRIAD_CONTENT_PORT: ' ' }, {}, { port: 9200 }).port).toBe(9200);
    expect(loadContentApiConfig({}, {}, {}).port).toBe(8081);
  });

  it('takes the log format from TRIAD_LOG_FORMAT, pretty or json only', () => {
    expect(loadContentApiConfig({ TRIAD_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadContentApiConfig({}).logFormat).toBeUndefined();
    expect(() => loadContentApiConfig({ TRIAD_LOG_FORMAT: 'xml' })).toThrow(/TRIAD_LOG_FORMAT/);
  });
});
