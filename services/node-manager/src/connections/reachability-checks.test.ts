import { describe, expect, it } from 'vitest';
import { checkReachability, EPMD_PORT, type ReachabilityProbes } from './reachability-checks.js';

const probes = (resolves: boolean, epmd: boolean, seen: string[] = []): ReachabilityProbes => ({
  lookup(host) {
    seen.push(`lookup ${host}`);
    return resolves
      ? Promise.resolve('10.0.0.1')
      : Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
  },
  canConnect(host, port) {
    seen.push(`connect ${host}:${port}`);
    return Promise.resolve(epmd);
  },
});

describe('checkReachability', () => {
  it('gives bad_node_format for names without name@host, without touching the network', async () => {
    const seen: string[] = [];
    const report = await checkReachability('justaname', probes(true, true, seen));
    expect(report).toMatchObject({
      reachability: 'is not reachable',
      details: [
        { checksPerformed: ['check_node_format'] },
        { reasonCode: 'bad_node_format' },
        { reasonDetails: expect.any(String) as string },
      ],
    });
    expect(seen).toEqual([]);
  });

  it('stops at host resolution when the host does not resolve', async () => {
    const report = await checkReachability('a@nohost', probes(false, true));
    expect(report.details[0]).toEqual({
      checksPerformed: ['check_node_format', 'check_name_type', 'check_host_resolution'],
    });
    expect(report.details[1]).toEqual({ reasonCode: 'host_not_resolvable' });
    expect(report.hints.length).toBeGreaterThan(0);
  });

  it('checks the EPMD port and reports should be reachable when it answers', async () => {
    const seen: string[] = [];
    expect((await checkReachability('a@h.example', probes(true, false))).details[1]).toEqual({
      reasonCode: 'epmd_not_reachable',
    });
    const ok = await checkReachability('a@h.example', probes(true, true, seen));
    expect(ok.reachability).toBe('should be reachable');
    expect(ok.details).toEqual([
      { checksPerformed: ['check_node_format', 'check_name_type', 'check_host_resolution', 'check_epmd_port'] },
    ]);
    expect(seen).toEqual(['lookup h.example', `connect h.example:${EPMD_PORT}`]);
  });
});
