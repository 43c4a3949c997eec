import { describe, expect, it } from 'vitest';
import { parseReachability } from './reachability-wire.js';

describe('parseReachability', () => {
  it('reads a failed report with its reason and hints', () => {
    const report = parseReachability({
      reachability: 'is not reachable',
      details: [
        { checksPerformed: ['check_node_format', 'check_name_type', 'check_epmd_port'] },
        { reasonCode: 'epmd_not_reachable' },
        { reasonDetails: 'no answer' },
      ],
      description: 'EPMD does not answer.',
      hints: ['Start epmd.'],
    });
    expect(report).toEqual({
      reachable: false,
      checks: ['check_node_format', 'check_name_type', 'check_epmd_port'],
      reasonCode: 'epmd_not_reachable',
      reasonDetails: 'no answer',
      description: 'EPMD does not answer.',
      hints: ['Start epmd.'],
    });
  });
  it('reads a passed report, and leaves out members of the wrong type', () => {
    const passed = parseReachability({
      reachability: 'should be reachable',
      details: [{ checksPerformed: ['check_node_format', 7] }, { reasonCode: 3 }],
      description: 'ok',
      hints: [],
    });
    expect(passed.reachable).toBe(true);
    expect(passed.checks).toEqual(['check_node_format']);
    expect(passed.reasonCode).toBeUndefined();
  });
});
