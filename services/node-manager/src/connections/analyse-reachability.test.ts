import { Socket } from 'node:net';
import { decodeAlive2Response, encodeAlive2Request } from '@triad/erlang-dist';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReachabilityReport } from './node-connector.js';
import { analyseReachability } from './analyse-reachability.js';
import { closedPort } from './test-support/closed-port.js';
import { liveErl, startErlNode, uniqueAlive, type ErlNode } from './test-support/erl-node.js';

function reasonCode(report: ReachabilityReport): string | undefined {
  for (const d of report.details) if ('reasonCode' in d) return d.reasonCode;
  return undefined;
}

function checks(report: ReachabilityReport): string[] {
  for (const d of report.details) if ('checksPerformed' in d) return d.checksPerformed;
  return [];
}

const ALL = [
  'check_node_format',
  'check_name_type',
  'check_host_resolution',
  'check_epmd_port',
  'check_node_in_epmd',
  'check_node_dist_port',
];

/**
 * Registers `alive` with the local EPMD for `port` (nothing listens there); the registration lives
 * while the socket is open.
 */
function registerFake(alive: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.once('data', (chunk) => {
      const reply = decodeAlive2Response(new Uint8Array(chunk));
      if (reply.result === 0) resolve(socket);
      else reject(new Error(`ALIVE2 result ${reply.result}`));
    });
    socket.connect(4369, '127.0.0.1', () => socket.write(encodeAlive2Request({ port, alive })));
  });
}

describe('analyseReachability without Erlang nodes', () => {
  it('stops at check_node_format with bad_node_format for a name without @', async () => {
    const report = await analyseReachability('no-at-sign');
    expect(report.reachability).toBe('is not reachable');
    expect(reasonCode(report)).toBe('bad_node_format');
    expect(checks(report)).toEqual(['check_node_format']);
  });

  it('stops at check_host_resolution with host_not_resolvable', async () => {
    const report = await analyseReachability('x@no-such-host.invalid', { timeoutMs: 3000 });
    expect(reasonCode(report)).toBe('host_not_resolvable');
    expect(checks(report)).toEqual(ALL.slice(0, 3));
  });

  it('stops at check_epmd_port with epmd_not_reachable and hints to start epmd', async () => {
    const report = await analyseReachability('x@127.0.0.1', { epmdPort: await closedPort() });
    expect(reasonCode(report)).toBe('epmd_not_reachable');
    expect(checks(report)).toEqual(ALL.slice(0, 4));
    expect(report.hints.join(' ')).toMatch(/epmd -daemon/);
  });
});

describe.skipIf(!liveErl.available && !liveErl.required)(
  'analyseReachability against real EPMD and nodes (skipped without erl: install erlang-base)',
  () => {
    let node: ErlNode | undefined;

    beforeAll(async () => {
      node = await startErlNode(uniqueAlive('reach'), 'cookie_reach');
    }, 15_000);

    afterAll(async () => {
      await node?.kill();
    });

    it('passes all six checks for a running short-name node', async () => {
      const report = await analyseReachability(node!.name);
      expect(report.reachability).toBe('should be reachable');
      expect(checks(report)).toEqual(ALL);
      expect(report.description).toMatch(/short name/);
    });

    it('stops at check_node_in_epmd with node_not_in_epmd and lists what is registered', async () => {
      const report = await analyseReachability(`${uniqueAlive('absent')}@127.0.0.1`);
      expect(reasonCode(report)).toBe('node_not_in_epmd');
      expect(checks(report)).toEqual(ALL.slice(0, 5));
      expect(report.hints.join(' ')).toContain(node!.alive);
    });

    it('stops at check_node_dist_port with dist_port_not_reachable when the registered port is closed', async () => {
      const alive = uniqueAlive('fakereg');
      const registration = await registerFake(alive, await closedPort());
      try {
        const report = await analyseReachability(`${alive}@127.0.0.1`);
        expect(reasonCode(report)).toBe('dist_port_not_reachable');
        expect(checks(report)).toEqual(ALL);
        expect(report.hints.join(' ')).toMatch(/inet_dist_listen_min/);
      } finally {
        registration.destroy();
      }
    });
  },
);

if (!liveErl.available && !liveErl.required)
  console.warn('analyse-reachability.test.ts: erl not found, live tests skipped (install erlang-base)');
