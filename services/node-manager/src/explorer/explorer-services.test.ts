import { atom, binary, encodeTerm, int, tuple } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import {
  parseServiceId,
  processManagerArguments,
  ServiceArgumentError,
  serviceIdOf,
  tableVisualizerArguments,
} from './explorer-services.js';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('explorer service ids and arguments', () => {
  it('reads back the ids it issues, and nothing else', () => {
    const id = serviceIdOf('4c6e-node', 'process_manager');
    expect(parseServiceId(id)).toEqual({ nodeId: '4c6e-node', name: 'process_manager' });
    expect(parseServiceId(serviceIdOf('n', 'table_visualizer'))).toEqual({ nodeId: 'n', name: 'table_visualizer' });
    const other = (name: string, area = 'explorer') =>
      base64(encodeTerm(tuple(atom('node'), binary('n'), atom(area), atom(name), atom('undefined'))));
    for (const bad of [
      '',
      'not base64!',
      'g2gF',
      other('evaluate_expression'),
      other('process_manager', 'executor'),
      other('toString'),
      base64(encodeTerm(tuple(atom('node'), int(1), atom('explorer'), atom('process_manager'), atom('x')))),
      'A'.repeat(600),
    ])
      expect(parseServiceId(bad)).toBeUndefined();
  });

  it("maps the Process Manager's OrderBy and Limit as WombatOAM's clients send them", () => {
    expect(
      processManagerArguments({
        OrderBy: 'Reductions',
        Interval: '10',
        Limit: '50',
        OrderDirection: 'Descending',
        Page: '1',
        FilterText: '',
      }),
    ).toEqual({ sort: 'reductions', limit: 50 });
    expect(processManagerArguments({})).toEqual({ sort: 'memory', limit: 20 });
    expect(processManagerArguments({ OrderBy: 'Message Queue Length', Limit: 3 })).toEqual({
      sort: 'message_queue_len',
      limit: 3,
    });
    expect(() => processManagerArguments({ OrderBy: 'Heap' })).toThrow(ServiceArgumentError);
    for (const Limit of ['0', '201', '2.5', 'ten']) expect(() => processManagerArguments({ Limit })).toThrow(/Limit/);
    expect(tableVisualizerArguments({ OrderBy: 'Size (words)', Limit: '1000' })).toEqual({ limit: 1000 });
    expect(() => tableVisualizerArguments({ Limit: '1001' })).toThrow(ServiceArgumentError);
  });
});
