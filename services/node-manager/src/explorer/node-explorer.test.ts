import { atom, int, NIL, tuple, type Term } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { NotConnectedError, RpcTimeoutError } from '../connections/connection-failure.js';
import type { RpcCaller } from '../monitoring/collector.js';
import { NodeExplorer } from './node-explorer.js';

const NODE = { id: 'n1', name: 'app@host' };

/**
 * An RPC caller that answers `erl_scan`/`erl_parse` (the one-time parse) at once and hands every
 * `erl_eval:exprs` call to `evaluate`, recording its bindings.
 */
function fakeRpc(evaluate: (bindings: Term) => Promise<Term>): RpcCaller & { evaluated: Term[] } {
  const evaluated: Term[] = [];
  return {
    evaluated,
    rpc(_nodeId, module, _fn, args = []) {
      if (module === 'erl_scan') return Promise.resolve(tuple(atom('ok'), NIL, int(1)));
      if (module === 'erl_parse') return Promise.resolve(tuple(atom('ok'), NIL));
      evaluated.push(args[1]!);
      return evaluate(args[1]!);
    },
  };
}

const value = (term: Term) => Promise.resolve(tuple(atom('value'), term, NIL));
const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'resolved';
};

describe('NodeExplorer', () => {
  it('refuses a call beyond the per-node cap with NM_ERR_EXPLORER_BUSY, frees the slot on a reply', async () => {
    const pending: ((term: Term) => void)[] = [];
    const rpc = fakeRpc(() => new Promise<Term>((resolve) => pending.push(resolve)));
    const explorer = new NodeExplorer(rpc, { timeoutMs: 1000, callsPerNode: 2 });
    const first = explorer.etsTables(NODE, 10);
    const second = explorer.etsTables(NODE, 10);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(explorer.inFlight('n1')).toBe(2);
    expect(await errorOf(explorer.topProcesses(NODE, 'memory', 5))).toBe('NM_ERR_EXPLORER_BUSY');
    // Another node has its own slots.
    void explorer.etsTables({ id: 'n2', name: 'b@host' }, 10).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(explorer.inFlight('n2')).toBe(1);

    const empty = tuple(int(0), int(8), NIL);
    pending[0]!(tuple(atom('value'), empty, NIL));
    expect(await first).toEqual({ tableCount: 0, tables: [] });
    expect(explorer.inFlight('n1')).toBe(1);
    const third = explorer.etsTables(NODE, 10);
    await new Promise((resolve) => setTimeout(resolve, 10));
    pending[1]!(tuple(atom('value'), empty, NIL));
    pending[3]!(tuple(atom('value'), empty, NIL));
    await Promise.all([second, third]);
    expect(explorer.inFlight('n1')).toBe(0);
  });

  it('passes the sort key and limit as bound terms, never as text', async () => {
    const rpc = fakeRpc(() => value(tuple(int(3), NIL)));
    const explorer = new NodeExplorer(rpc, { timeoutMs: 1000, callsPerNode: 1 });
    expect(await explorer.topProcesses(NODE, 'message_queue_len', 7)).toEqual({ processCount: 3, processes: [] });
    expect(rpc.evaluated[0]).toEqual({
      type: 'list',
      elements: [tuple(atom('Key'), atom('message_queue_len')), tuple(atom('Limit'), int(7))],
      tail: NIL,
    });
  });

  it('maps a timeout, a missing connection and an error reply to their catalogue errors', async () => {
    const cases: [() => Promise<Term>, string][] = [
      [() => Promise.reject(new RpcTimeoutError('app@host', 'erl_eval:exprs/2', 1000)), 'NM_ERR_NODE_TIMEOUT'],
      [() => Promise.reject(new NotConnectedError('n1')), 'NM_ERR_NODE_UNREACHABLE'],
      [() => Promise.resolve(tuple(atom('badrpc'), atom('nodedown'))), 'NM_ERR_EXPLORER_FAILED'],
      [() => value(atom('unexpected')), 'NM_ERR_EXPLORER_FAILED'],
    ];
    for (const [answer, code] of cases) {
      const failures: unknown[] = [];
      const explorer = new NodeExplorer(fakeRpc(answer), { timeoutMs: 1000, callsPerNode: 1 }, (error) =>
        failures.push(error),
      );
      expect(await errorOf(explorer.etsTables(NODE, 10))).toBe(code);
      expect(failures).toHaveLength(1);
      expect(explorer.inFlight('n1')).toBe(0);
    }
    const without = new NodeExplorer(undefined, { timeoutMs: 1000, callsPerNode: 1 });
    expect(await errorOf(without.etsTables(NODE, 10))).toBe('NM_ERR_NODE_UNREACHABLE');
  });

  it('refuses a malformed pid before asking the node, and answers NM_ERR_PROCESS_NOT_FOUND for undefined', async () => {
    const rpc = fakeRpc(() => value(atom('undefined')));
    const explorer = new NodeExplorer(rpc, { timeoutMs: 1000, callsPerNode: 1 });
    for (const bad of ['<0.1.0>.', '<0.1.0', 'erlang:halt()', '<0.1.0>\n', ''])
      expect(await errorOf(explorer.process(NODE, bad))).toBe('NM_ERR_BAD_PID');
    expect(rpc.evaluated).toHaveLength(0);
    expect(await errorOf(explorer.process(NODE, '<0.123.0>'))).toBe('NM_ERR_PROCESS_NOT_FOUND');
    expect(rpc.evaluated).toHaveLength(1);
  });
});
