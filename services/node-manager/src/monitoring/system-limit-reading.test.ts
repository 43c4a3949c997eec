import { atom, int, list, string, tuple, NIL, type Term } from '@triad/erlang-dist';
import { describe, expect, it } from 'vitest';
import { parseSystemLimitReading } from './system-limit-reading.js';

const UNDEFINED = atom('undefined');
/** An evaluation result of SYSTEM_LIMIT_SOURCE with these file descriptors and index tables. */
const result = (fds: Term, tables: Term): Term =>
  tuple(
    ...[10, 100, 5, 100, 1_000, 10_000, 3, 100].map((n) => int(n)),
    tuple(UNDEFINED, int(0), NIL),
    UNDEFINED,
    UNDEFINED,
    fds,
    tables,
  );

describe('system limit reading', () => {
  it('reads open file descriptors and the module and export tables', () => {
    const reading = parseSystemLimitReading(
      result(
        tuple(int(96), int(128)),
        list([
          tuple(string('module_code'), int(65_536), int(111)),
          tuple(string('export_list'), int(524_288), int(3_331)),
        ]),
      ),
      'n@h',
    );
    expect(reading.open_fd_limit_node).toEqual({ value: 75, detail: 'open file descriptors: 96 of 128 (75.0 %)' });
    expect(reading.module_limit?.detail).toBe('modules: 111 of 65536 (0.2 %)');
    expect(reading.export_limit?.value).toBeCloseTo((100 * 3_331) / 524_288);
    expect(reading.process_limit?.value).toBe(10);
  });

  it('leaves the families out where the node has no /proc or reports no index tables', () => {
    const reading = parseSystemLimitReading(result(UNDEFINED, NIL), 'n@h');
    expect(Object.keys(reading).sort()).toEqual([
      'atom_limit',
      'ets_limit',
      'port_limit',
      'process_limit',
      'process_message_queue',
    ]);
  });

  it('refuses a result of another shape', () => {
    expect(() => parseSystemLimitReading(tuple(int(1)), 'n@h')).toThrow(/system limits gave/);
  });
});
