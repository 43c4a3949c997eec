import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listNodes, lookupNodePort } from './epmd-client.js';
import { closedPort } from './test-support/closed-port.js';
import { liveErl, shortHost, startErlNode, uniqueAlive, type ErlNode } from './test-support/erl-node.js';

describe.skipIf(!liveErl.available && !liveErl.required)(
  'EPMD client against the real epmd (skipped without erl: install erlang-base)',
  () => {
    let node: ErlNode | undefined;

    beforeAll(async () => {
      node = await startErlNode(uniqueAlive('epmdc'), 'cookie_epmd');
    }, 15_000);

    afterAll(async () => {
      await node?.kill();
    });

    it('finds the distribution port of a registered node', async () => {
      const found = await lookupNodePort(shortHost(), node!.alive);
      expect(found.kind).toBe('port');
      if (found.kind === 'port') {
        expect(found.port).toBeGreaterThan(0);
        expect(found.info.name).toBe(node!.alive);
        expect(found.info.highestVersion).toBeGreaterThanOrEqual(6);
      }
    });

    it('reports a name EPMD does not know as notRegistered', async () => {
      expect((await lookupNodePort('127.0.0.1', uniqueAlive('nobody'))).kind).toBe('notRegistered');
    });

    it('lists the registered node with its port through NAMES', async () => {
      const names = await listNodes('127.0.0.1');
      expect(names.kind).toBe('names');
      const port = await lookupNodePort('127.0.0.1', node!.alive);
      if (names.kind === 'names' && port.kind === 'port')
        expect(names.nodes).toContainEqual({ name: node!.alive, port: port.port });
    });
  },
);

describe('EPMD client failures', () => {
  it('reports an unresolvable host as hostUnresolvable', async () => {
    const found = await lookupNodePort('no-such-host.invalid', 'x', { timeoutMs: 3000 });
    expect(found.kind).toBe('hostUnresolvable');
  });

  it('reports a refused EPMD port as epmdUnreachable with ECONNREFUSED', async () => {
    const found = await lookupNodePort('127.0.0.1', 'x', { epmdPort: await closedPort() });
    expect(found).toMatchObject({ kind: 'epmdUnreachable', code: 'ECONNREFUSED' });
    expect((await listNodes('127.0.0.1', { epmdPort: await closedPort() })).kind).toBe('epmdUnreachable');
  });
});

if (!liveErl.available && !liveErl.required)
  console.warn('epmd-client.test.ts: erl not found, live tests skipped (install erlang-base)');
