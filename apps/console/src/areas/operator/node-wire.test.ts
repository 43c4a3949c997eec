import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ReachabilityWire } from './reachability-wire.js';
import {
  formatUptime,
  type AlarmWire,
  type FamilyWire,
  type NodeDetailWire,
  type NodeInfoWire,
  type NodeLogWire,
  type NodeWire,
} from './node-wire.js';

describe('formatUptime', () => {
  it('shows the two largest units, or a dash for no uptime', () => {
    expect(formatUptime(null)).toBe('—');
    expect(formatUptime(42_000)).toBe('42 s');
    expect(formatUptime((5 * 3600 + 12 * 60) * 1000)).toBe('5 h 12 min');
    expect(formatUptime((3 * 86_400 + 4 * 3600) * 1000)).toBe('3 d 4 h');
  });
});

// The wire types name generated ones; a route renamed in the service would turn them into `never`
// silently, and `never` has every property. These checks run in `tsc -p apps/console/tsconfig.json`.
describe('node manager wire types', () => {
  it('name real replies of the node manager', () => {
    expectTypeOf<NodeWire['name']>().toEqualTypeOf<string>();
    expectTypeOf<NodeWire['uptime_ms']>().toEqualTypeOf<number | null>();
    expectTypeOf<NodeDetailWire['total_memory']>().toEqualTypeOf<number | null>();
    expectTypeOf<NodeInfoWire['applications'][number]['version']>().toEqualTypeOf<string>();
    expectTypeOf<FamilyWire['name']>().toEqualTypeOf<string>();
    expectTypeOf<AlarmWire['src']['nodeId']>().toEqualTypeOf<string>();
    expectTypeOf<AlarmWire['comments'][number]['time']>().toEqualTypeOf<number>();
    expectTypeOf<AlarmWire['eventTime']>().toEqualTypeOf<number>();
    expectTypeOf<NodeLogWire['text']>().toEqualTypeOf<string>();
    expectTypeOf<ReachabilityWire['hints']>().toEqualTypeOf<readonly string[]>();
  });
});
