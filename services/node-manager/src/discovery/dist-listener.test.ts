import { spawnSync } from 'node:child_process';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atom, isAtom, tuple, tupleOf, type Term } from '@triad/erlang-dist';
import { liveErl, uniqueAlive } from '../connections/test-support/erl-node.js';
import { DistListener, type DistListenerEvent } from './dist-listener.js';
import { registerWithEpmd, type EpmdRegistration } from './epmd-registration.js';
import { runErl } from './test-support/run-erl.js';

const suite = liveErl.available || liveErl.required ? describe : describe.skip;

suite('DistListener with real Erlang nodes', () => {
  const COOKIE = 'selfregcookie';
  const name = `${uniqueAlive('tdl')}@127.0.0.1`;
  const events: DistListenerEvent[] = [];
  let listener: DistListener;
  let registration: EpmdRegistration;
  const calls: { request: Term; caller: string }[] = [];

  beforeAll(async () => {
    spawnSync('epmd', ['-daemon']); // as `erl -name` would; a running EPMD stays
    listener = await DistListener.listen({
      name,
      cookie: COOKIE,
      port: 0,
      host: '127.0.0.1',
      handlers: new Map([
        [
          'wo_discover_dynamic_nodes',
          (request: Term, caller: string) => {
            calls.push({ request, caller });
            const t = tupleOf(request, 3);
            return Promise.resolve(
              isAtom(t?.[0], 'auto_discover_node') ? atom('ok') : tuple(atom('error'), atom('unknown_request')),
            );
          },
        ],
      ]),
      limits: { handshakeTimeoutMs: 1_000 },
      onEvent: (event) => events.push(event),
    });
    registration = await registerWithEpmd({ alive: name.split('@')[0]!, port: listener.port });
    listener.ready(registration.creation);
  });
  afterAll(async () => {
    registration?.close();
    await listener?.close();
  });

  it('answers net_adm:ping with pong, and pang to a node with another cookie', async () => {
    const ok = await runErl(uniqueAlive('p1'), COOKIE, `io:format("~p", [net_adm:ping('${name}')]), halt().`);
    expect(ok).toBe('pong');
    const wrong = await runErl(uniqueAlive('p2'), 'other', `io:format("~p", [net_adm:ping('${name}')]), halt().`);
    expect(wrong).toBe('pang');
    expect(events.some((e) => e.kind === 'refused' && e.reason.startsWith('wrong cookie'))).toBe(true);
  });

  it("answers the published discovery call unchanged, with the caller's node name", async () => {
    const alive = uniqueAlive('d1');
    const out = await runErl(
      alive,
      COOKIE,
      `ok = gen_server:call({wo_discover_dynamic_nodes, '${name}'},` +
        ` {auto_discover_node, node(), erlang:get_cookie()}),` +
        ` R = gen_server:call({wo_discover_dynamic_nodes, '${name}'}, what),` +
        ` io:format("~p ~p", [R, lists:member('${name}', nodes())]), halt().`,
    );
    expect(out).toBe('{error,unknown_request} true');
    expect(calls.at(-2)).toEqual({
      request: tuple(atom('auto_discover_node'), atom(`${alive}@127.0.0.1`), atom(COOKIE)),
      caller: `${alive}@127.0.0.1`,
    });
  });

  it("keeps a connection past the peer's net_ticktime by answering its ticks", async () => {
    const out = await runErl(
      uniqueAlive('t1'),
      COOKIE,
      `pong = net_adm:ping('${name}'), timer:sleep(5000), io:format("~p", [lists:member('${name}', nodes())]), halt().`,
      { extraArgs: ['-kernel', 'net_ticktime', '1'] },
    );
    expect(out).toBe('true');
  });

  it('makes a call to a name we do not have fail with noproc at once', async () => {
    const started = Date.now();
    const out = await runErl(
      uniqueAlive('u1'),
      COOKIE,
      `R = (catch gen_server:call({nobody_here, '${name}'}, x, 4000)),` +
        ` io:format("~p", [element(1, element(2, R))]), halt().`,
    );
    expect(out).toBe('noproc');
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('drops a peer that sends garbage, and one that never completes the handshake', async () => {
    const closedAfter = (bytes: Uint8Array) =>
      new Promise<number>((resolve) => {
        const started = Date.now();
        const socket = new Socket();
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(Date.now() - started));
        socket.connect(listener.port, '127.0.0.1', () => socket.write(bytes));
      });
    expect(await closedAfter(new Uint8Array([0, 3, 1, 2, 3]))).toBeLessThan(900);
    const silent = await closedAfter(new Uint8Array(0));
    expect(silent).toBeGreaterThanOrEqual(900);
    expect(silent).toBeLessThan(3_000);
    expect(events.filter((e) => e.kind === 'refused').map((e) => e.kind === 'refused' && e.reason)).toContain(
      'no handshake within 1000 ms',
    );
  });
});
