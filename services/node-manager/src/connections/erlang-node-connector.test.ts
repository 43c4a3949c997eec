import { atom, isAtom } from '@triad/erlang-dist';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NodeState } from './node-connector.js';
import { ErlangNodeConnector } from './erlang-node-connector.js';
import { closedPort } from './test-support/closed-port.js';
import { liveErl, startErlNode, uniqueAlive, waitFor, type ErlNode } from './test-support/erl-node.js';

const COOKIE = 'cookie_enc';

/** A connector whose listener records every (id, state) change. */
function recordingConnector(extra: { epmdPort?: number } = {}) {
  const changes: [string, NodeState][] = [];
  const connector = new ErlangNodeConnector({ onStateChange: (id, state) => changes.push([id, state]), ...extra });
  const last = (id: string) => changes.filter(([i]) => i === id).at(-1)?.[1];
  return { connector, changes, last };
}

describe.skipIf(!liveErl.available && !liveErl.required)(
  'ErlangNodeConnector against real nodes (skipped without erl: install erlang-base)',
  () => {
    let main: ErlNode | undefined;
    let peer: ErlNode | undefined;
    let long: ErlNode | undefined;
    const extra: ErlNode[] = [];
    const connectors: ErlangNodeConnector[] = [];

    const make = (options: { epmdPort?: number } = {}) => {
      const r = recordingConnector(options);
      connectors.push(r.connector);
      return r;
    };

    beforeAll(async () => {
      [main, peer, long] = await Promise.all([
        startErlNode(uniqueAlive('encmain'), COOKIE),
        startErlNode(uniqueAlive('encpeer'), COOKIE),
        startErlNode(uniqueAlive('enclong'), COOKIE, { long: true }),
      ]);
    }, 20_000);

    afterEach(async () => {
      for (const c of connectors.splice(0)) await c.close();
    });

    afterAll(async () => {
      await Promise.all([main, peer, long, ...extra].flatMap((n) => (n ? [n.kill()] : [])));
    });

    it('connects short- and long-name nodes UP and notifies the listener', async () => {
      const { connector, last } = make();
      expect(await connector.connect({ id: 'a', name: main!.name, cookie: COOKIE })).toBe('UP');
      expect(await connector.connect({ id: 'b', name: long!.name, cookie: COOKIE })).toBe('UP');
      expect(connector.state('a')).toBe('UP');
      expect(last('b')).toBe('UP');
      expect(await connector.rpc('a', 'erlang', 'node')).toEqual(atom(main!.name));
    });

    it('reports a wrong cookie as DOWN with failure kind badCookie', async () => {
      const { connector } = make();
      expect(await connector.connect({ id: 'w', name: main!.name, cookie: 'wrong_cookie' })).toBe('DOWN');
      expect(connector.failure('w')?.kind).toBe('badCookie');
    });

    it('reports a node that EPMD does not know as STOPPED', async () => {
      const { connector } = make();
      expect(await connector.connect({ id: 'u', name: `${uniqueAlive('nobody')}@127.0.0.1`, cookie: COOKIE })).toBe(
        'STOPPED',
      );
      expect(connector.failure('u')?.kind).toBe('notRegistered');
    });

    it('reports a node UP when last known (before a restart) and not registered now as DOWN', async () => {
      const { connector } = make();
      const name = `${uniqueAlive('gone')}@127.0.0.1`;
      expect(await connector.connect({ id: 'g', name, cookie: COOKIE, wasUp: true })).toBe('DOWN');
      expect(connector.failure('g')?.kind).toBe('notRegistered');
    });

    it('reports an unresolvable host and a host without EPMD as DOWN', async () => {
      const { connector } = make({ epmdPort: await closedPort() });
      expect(await connector.connect({ id: 'h', name: 'x@no-such-host.invalid', cookie: COOKIE })).toBe('DOWN');
      expect(connector.failure('h')?.kind).toBe('hostUnresolvable');
      expect(await connector.connect({ id: 'e', name: 'x@127.0.0.1', cookie: COOKIE })).toBe('DOWN');
      expect(connector.failure('e')?.kind).toBe('epmdUnreachable');
    });

    it('sees a killed node DOWN at once, keeps it DOWN once EPMD forgot it, and UP after a restart', async () => {
      const alive = uniqueAlive('enckill');
      const victim = await startErlNode(alive, COOKIE);
      extra.push(victim);
      const { connector, changes, last } = make();
      expect(await connector.connect({ id: 'k', name: victim.name, cookie: COOKIE })).toBe('UP');
      await victim.kill();
      await waitFor(() => last('k') !== 'UP', 2000, 'DOWN after kill -9');
      expect(last('k')).toBe('DOWN');
      // A crash is not a stop: EPMD no longer knowing the node does not turn it into STOPPED (0038).
      await waitFor(() => connector.failure('k')?.kind === 'notRegistered', 5000, 'EPMD to forget the node');
      expect(connector.state('k')).toBe('DOWN');
      expect(changes.filter(([id]) => id === 'k').map(([, s]) => s)).toEqual(['UP', 'DOWN']);
      const again = await startErlNode(alive, COOKIE);
      extra.push(again);
      await waitFor(() => last('k') === 'UP', 12_000, 'UP after restart');
      expect(changes.filter(([id]) => id === 'k').map(([, s]) => s)[0]).toBe('UP');
    }, 25_000);

    it('sees a frozen node (SIGSTOP) DOWN through health calls, and UP after SIGCONT', async () => {
      const frozen = await startErlNode(uniqueAlive('encstop'), COOKIE);
      extra.push(frozen);
      const { connector, last } = make();
      expect(await connector.connect({ id: 's', name: frozen.name, cookie: COOKIE })).toBe('UP');
      frozen.signal('SIGSTOP');
      try {
        await waitFor(() => last('s') === 'DOWN', 6000, 'DOWN within 5 s of SIGSTOP');
        expect(connector.failure('s')?.kind).toBe('healthTimeout');
      } finally {
        frozen.signal('SIGCONT');
      }
      await waitFor(() => last('s') === 'UP', 8000, 'UP after SIGCONT');
    }, 20_000);

    it('discovers the visible nodes connected to a node, not hidden ones like itself', async () => {
      const { connector } = make();
      await connector.connect({ id: 'm', name: main!.name, cookie: COOKIE });
      // Another hidden client (a tool, a second service) connected to the node is no cluster member.
      const hidden = make().connector;
      expect(await hidden.connect({ id: 'h', name: main!.name, cookie: COOKIE })).toBe('UP');
      const linked = await connector.rpc('m', 'net_kernel', 'connect_node', [atom(peer!.name)]);
      expect(isAtom(linked, 'true')).toBe(true);
      const found = await connector.discover({ id: 'm', name: main!.name, cookie: COOKIE });
      expect(found).toContain(peer!.name);
      expect(found).not.toContain(connector.localName);
      expect(found).not.toContain(hidden.localName);
      // Also through a short-lived connection when the node is not managed.
      expect(await make().connector.discover({ id: 'x', name: main!.name, cookie: COOKIE })).toContain(peer!.name);
      expect(await make().connector.discover({ id: 'x', name: main!.name, cookie: 'wrong' })).toEqual([]);
    });

    it('reads the release a plain erl node booted: init:script_id() is {"Erlang/OTP", OtpRelease}', async () => {
      const { connector } = make();
      await connector.connect({ id: 'r', name: main!.name, cookie: COOKIE });
      // On this machine (OTP 25) a plain erl answers {"Erlang/OTP","25"}: the version is the OTP release.
      const otp = await connector.rpc('r', 'erlang', 'system_info', [atom('otp_release')]);
      expect(otp.type).toBe('string');
      expect(await connector.release('r')).toEqual({
        name: 'Erlang/OTP',
        version: otp.type === 'string' ? otp.value : '?',
      });
      expect(await connector.release('unknown')).toBeUndefined();
    });

    it('stops managing on disconnect and closes the connection', async () => {
      const { connector } = make();
      await connector.connect({ id: 'd', name: main!.name, cookie: COOKIE });
      await connector.disconnect('d');
      expect(connector.state('d')).toBeUndefined();
      await expect(connector.rpc('d', 'erlang', 'node')).rejects.toThrow(/not connected/);
    });
  },
);

if (!liveErl.available && !liveErl.required)
  console.warn('erlang-node-connector.test.ts: erl not found, live tests skipped (install erlang-base)');
