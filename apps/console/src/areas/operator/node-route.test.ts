import { describe, expect, it } from 'vitest';
import { nodePageId } from './node-route.js';

describe('nodePageId', () => {
  it('reads the node id of /nodes/<id>, decoded, with or without a query or a final slash', () => {
    expect(nodePageId('/nodes/4c6e-1')).toBe('4c6e-1');
    expect(nodePageId('/nodes/a%40b/')).toBe('a@b');
    expect(nodePageId('/nodes/abc?range=24h')).toBe('abc');
  });
  it('is undefined for the list, other pages and malformed ids', () => {
    expect(nodePageId('/nodes')).toBeUndefined();
    expect(nodePageId('/nodes/')).toBeUndefined();
    expect(nodePageId('/alarms')).toBeUndefined();
    expect(nodePageId('/nodes/a/b')).toBeUndefined();
    expect(nodePageId('/nodes/%E0%A4%A')).toBeUndefined();
  });
});
