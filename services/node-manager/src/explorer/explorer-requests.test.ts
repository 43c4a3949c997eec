import { describe, expect, it } from 'vitest';
import { EXPLORER_REQUEST_TTL_MS, ExplorerRequests, MAX_EXPLORER_REQUESTS } from './explorer-requests.js';

const request = { serviceId: 's', nodeId: 'n', label: 'Process Manager', result: { processes: [] } };

describe('ExplorerRequests', () => {
  it('gives a request back under its id until 60 s after it finished', () => {
    let now = 1_000;
    const requests = new ExplorerRequests(() => now);
    const record = requests.add(request);
    expect(record.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(requests.find(record.requestId)).toEqual({ ...request, requestId: record.requestId, finishedAt: 1_000 });
    now += EXPLORER_REQUEST_TTL_MS;
    expect(requests.find(record.requestId)).toBeDefined();
    now += 1;
    expect(requests.find(record.requestId)).toBeUndefined();
    expect(requests.find('no-such-id')).toBeUndefined();
  });

  it('keeps the newest requests beyond the cap', () => {
    const requests = new ExplorerRequests(() => 5);
    const first = requests.add(request);
    const ids = Array.from({ length: MAX_EXPLORER_REQUESTS }, () => requests.add(request).requestId);
    expect(requests.find(first.requestId)).toBeUndefined();
    expect(requests.find(ids[0]!)).toBeDefined();
    expect(requests.find(ids.at(-1)!)).toBeDefined();
  });
});
