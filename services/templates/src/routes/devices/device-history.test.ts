import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import { DeviceHistoryRepository } from '../../repositories/device-history-repository.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';
import { pingTemplate } from '../../test-support/ping-template.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';

interface HistoryReply {
  resolution: string;
  step: number;
  row: string | null;
  from: string;
  points: { at: number; value: number | null; text: string | null }[];
  buckets: { at: number; min: number; max: number; avg: number; count: number }[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describeEachDatabase<TemplatesDatabase>('GET /devices/{id}/history', (getDb) => {
  let app: FastifyInstance;
  let id: string;
  // Whole hours, so bucket boundaries in the expectations are plain.
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  const history = (query: string) => app.inject({ method: 'GET', url: `/devices/${id}/history?${query}` });

  beforeAll(async () => {
    app = await buildTestApp(getDb(), { collectDevices: false });
    expect(
      (await app.inject({ method: 'POST', url: '/templates', payload: pingTemplate('1.0.0', 1e9) })).statusCode,
    ).toBe(201);
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'stored only',
        templateId: 'Ping Check',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1' },
      },
    });
    id = created.json<{ id: string }>().id;
    // Every 30 s for the last 2 h (raw), and minute rows for 3 days before (as if swept of raw values).
    const repository = new DeviceHistoryRepository(getDb());
    const at = (i: number) => now - i * 30_000;
    await repository.write(
      Array.from({ length: 240 }, (_, i) => ({
        deviceId: id,
        setId: 'reachability',
        datapointId: 'roundTripTime',
        row: '',
        at: at(i),
        value: i % 10,
        text: null,
      })),
    );
    await repository.write(
      Array.from({ length: 3 * 24 * 60 }, (_, i) => ({
        deviceId: id,
        setId: 'reachability',
        datapointId: 'roundTripTime',
        row: '',
        at: now - 2 * DAY - i * MINUTE,
        value: 100 + (i % 60),
        text: null,
      })),
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers the raw points of a recent range, oldest first', async () => {
    const reply = await history(`set=reachability&datapoint=roundTripTime&from=${now - 5 * MINUTE}&to=${now}`);
    expect(reply.statusCode).toBe(200);
    const body = reply.json<HistoryReply>();
    expect(body).toMatchObject({ resolution: 'raw', step: 0, row: null, buckets: [] });
    expect(body.points.map((p) => p.at)).toEqual(Array.from({ length: 11 }, (_, i) => now - (10 - i) * 30_000));
    expect(body.points.at(-1)).toEqual({ at: now, value: 0, text: null });
  });

  it('answers buckets of a given step from raw values, with min, max and avg', async () => {
    const reply = await history(`set=reachability&datapoint=roundTripTime&from=${now - HOUR}&to=${now - 1}&step=10m`);
    const body = reply.json<HistoryReply>();
    expect(body).toMatchObject({ resolution: 'raw', step: 600_000, points: [] });
    expect(body.buckets).toHaveLength(6);
    // 20 values per 10 min, cycling 0..9.
    expect(body.buckets[0]).toEqual({ at: now - HOUR, min: 0, max: 9, avg: 4.5, count: 20 });
  });

  it('answers an older range from minute rows in a step chosen to fit the point limit', async () => {
    const from = now - 5 * DAY;
    const reply = await history(`set=reachability&datapoint=roundTripTime&from=${from}&to=${now - 2 * DAY}`);
    const body = reply.json<HistoryReply>();
    // 3 days / 2,000 = 2.16 min: 5 min buckets.
    expect(body).toMatchObject({ resolution: 'minute', step: 300_000, points: [], from: new Date(from).toISOString() });
    expect(body.buckets.length).toBeGreaterThan(800);
    expect(body.buckets.length).toBeLessThanOrEqual(2000);
    for (const bucket of body.buckets) {
      expect(bucket.min).toBeGreaterThanOrEqual(100);
      expect(bucket.max).toBeLessThanOrEqual(159);
    }
  });

  it('refuses a step giving too many buckets and a malformed time, in the problem shape', async () => {
    const tooMany = await history(`set=reachability&datapoint=roundTripTime&from=${now - 30 * DAY}&to=${now}&step=1m`);
    expect(tooMany.statusCode).toBe(400);
    const problem = tooMany.json<ProblemDocument>();
    expect(problem.code).toBe('TPL_ERR_HISTORY_QUERY_INVALID');
    expect(problem.detail).toContain('give a step of at least 1800000 ms');
    const badTime = await history('set=reachability&datapoint=roundTripTime&from=yesterday');
    expect(badTime.statusCode).toBe(400);
    const badStep = await history('set=reachability&datapoint=roundTripTime&step=5x');
    expect(badStep.statusCode).toBe(400);
  });

  it('refuses a datapoint the template lacks with 404, and answers one without values with nothing', async () => {
    const unknown = await history('set=reachability&datapoint=nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ProblemDocument>().code).toBe('TPL_ERR_DEVICE_DATAPOINT_NOT_FOUND');
    const empty = await history('set=reachability&datapoint=packetLoss');
    expect(empty.json<HistoryReply>()).toMatchObject({ points: [], buckets: [] });
    const noDevice = await app.inject({ method: 'GET', url: '/devices/nope/history?set=a&datapoint=b' });
    expect(noDevice.json<ProblemDocument>().code).toBe('TPL_ERR_DEVICE_NOT_FOUND');
  });
});
