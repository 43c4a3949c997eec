import { describe, expect, it } from 'vitest';
import { processLabel, processPath, topProcessesPath } from './explorer-wire.js';

describe('explorer wire', () => {
  it('encodes the node id and the pid into the paths', () => {
    expect(topProcessesPath('a/b', 'message_queue_len', 20)).toBe(
      '/api/explorer/node/a%2Fb/processes?sort=message_queue_len&limit=20',
    );
    expect(processPath('n1', '<0.93.0>')).toBe('/api/explorer/node/n1/processes/%3C0.93.0%3E');
  });

  it('names a process by its registered name, else by its pid', () => {
    expect(processLabel({ pid: '<0.93.0>', registered_name: 'my_server' })).toBe('my_server');
    expect(processLabel({ pid: '<0.93.0>', registered_name: null })).toBe('<0.93.0>');
  });
});
