import { atom, type Term } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { ExclusiveRpcGate } from './exclusive-rpc-gate.js';

/** An RPC caller whose calls end when the test says so; records starts and ends. */
function manualRpc() {
  const log: string[] = [];
  const pending = new Map<string, () => void>();
  return {
    log,
    finish(fn: string) {
      pending.get(fn)?.();
    },
    rpc: {
      rpc(nodeId: string, _module: string, fn: string): Promise<Term> {
        log.push(`start ${nodeId}:${fn}`);
        return new Promise<Term>((resolve) =>
          pending.set(fn, () => {
            log.push(`end ${nodeId}:${fn}`);
            resolve(atom('ok'));
          }),
        );
      },
    },
  };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ExclusiveRpcGate', () => {
  it('runs an exclusive call only after shared calls in flight end, and holds new shared calls back', async () => {
    const fake = manualRpc();
    const gate = new ExclusiveRpcGate(fake.rpc);
    const a = gate.shared.rpc('n', 'm', 'a');
    const b = gate.shared.rpc('n', 'm', 'b');
    const kernel = gate.exclusive.rpc('n', 'm', 'kernel');
    const c = gate.shared.rpc('n', 'm', 'c');
    const other = gate.shared.rpc('other', 'm', 'x');
    await tick();
    expect(fake.log).toEqual(['start n:a', 'start n:b', 'start other:x']);
    fake.finish('a');
    fake.finish('b');
    await tick();
    expect(fake.log.slice(3)).toEqual(['end n:a', 'end n:b', 'start n:kernel']);
    fake.finish('kernel');
    await tick();
    expect(fake.log.slice(6)).toEqual(['end n:kernel', 'start n:c']);
    fake.finish('c');
    fake.finish('x');
    await Promise.all([a, b, kernel, c, other]);
  });
});
