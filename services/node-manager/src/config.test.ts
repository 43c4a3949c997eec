import { describe, expect, it } from 'vitest';
import { loadNodeManagerConfig } from './config.js';

describe('loadNodeManagerConfig', () => {
  it('ranks a port: override, then TRIAD_NODE_MANAGER_PORT, then a fallback, then 8080', () => {
    const env = { TRIAD_NODE_MANAGER_PORT: '9000' };
    expect(loadNodeManagerConfig(env, { port: 9100 }, { port: 9200 }).port).toBe(9100);
    expect(loadNodeManagerConfig(env, {}, { port: 9200 }).port).toBe(9000);
    expect(loadNodeManagerConfig({ TRIAD_NODE_MANAGER_PORT: ' ' }, {}, { port: 9200 }).port).toBe(9200);
    expect(loadNodeManagerConfig({}, {}, {}).port).toBe(8080);
  });

  it('takes the log format from TRIAD_LOG_FORMAT, pretty or json only', () => {
    expect(loadNodeManagerConfig({ TRIAD_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadNodeManagerConfig({}).logFormat).toBeUndefined();
    expect(() => loadNodeManagerConfig({ TRIAD_LOG_FORMAT: 'xml' })).toThrow(/TRIAD_LOG_FORMAT/);
  });

  it('refuses a TRIAD_ADMIN_PASSWORD shorter than the minimum of the API and the CLI, naming it', () => {
    expect(() => loadNodeManagerConfig({ TRIAD_ADMIN_PASSWORD: 'a' })).toThrow(/TRIAD_ADMIN_PASSWORD.*8/);
    expect(() => loadNodeManagerConfig({ TRIAD_ADMIN_PASSWORD: 'pass-word' })).toThrow(/TRIAD_ADMIN_PASSWORD/);
    expect(loadNodeManagerConfig({ TRIAD_ADMIN_PASSWORD: 'Admin123' }).adminPassword).toBe('Admin123');
  });

  it('keeps self-registration off by default and wants a cookie with TRIAD_NODE_NAME', () => {
    const off = loadNodeManagerConfig({});
    expect(off.nodeName).toBeUndefined();
    expect(off).toMatchObject({ nodePort: 0, discoveryFamily: '', discoveryPerMinute: 600, nodeMaxConnections: 1024 });
    expect(() => loadNodeManagerConfig({ TRIAD_NODE_NAME: 'wombat@127.0.0.1' })).toThrow(/TRIAD_NODE_COOKIE/);
    expect(() => loadNodeManagerConfig({ TRIAD_NODE_NAME: 'wombat', TRIAD_NODE_COOKIE: 'c' })).toThrow(
      /TRIAD_NODE_NAME/,
    );
    const on = loadNodeManagerConfig({
      TRIAD_NODE_NAME: 'wombat@host',
      TRIAD_NODE_COOKIE: 'secret',
      TRIAD_DISCOVERY_FAMILY: 'Autoscaled',
    });
    expect(on).toMatchObject({ nodeName: 'wombat@host', nodeCookie: 'secret', discoveryFamily: 'Autoscaled' });
  });
});
