import type { FastifyInstance } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';
import { pingTemplate } from '../../test-support/ping-template.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';

interface Value {
  datapointId: string;
  value: unknown;
  timestamp: number;
}

describeEachDatabase<TemplatesDatabase>('device history across a restart', (getDb) => {
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    await app?.close();
  });

  it('keeps every value collected before the service closed: a new app answers them', async () => {
    // A flush interval far longer than the test: only the flush at close can write the values.
    app = await buildTestApp(getDb(), { historyFlushMs: 60_000 });
    await app.inject({ method: 'POST', url: '/templates', payload: pingTemplate('1.0.0', 1e9) });
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'loopback',
        templateId: 'Ping Check',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1' },
        drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 500 } },
      },
    });
    const { id } = created.json<{ id: string }>();
    const values = async () =>
      (await app!.inject({ method: 'GET', url: `/devices/${id}/values` })).json<{ values: Value[] }>().values;
    await expect
      .poll(async () => (await values()).some((v) => v.datapointId === 'roundTripTime'), { timeout: 20_000 })
      .toBe(true);
    const rtt = (await values()).find((v) => v.datapointId === 'roundTripTime')!;
    await app.close();
    app = await buildTestApp(getDb(), { collectDevices: false });
    const reply = await app.inject({
      method: 'GET',
      url: `/devices/${id}/history?set=reachability&datapoint=roundTripTime&from=${rtt.timestamp - 60_000}`,
    });
    const { points } = reply.json<{ points: { at: number; value: number | null }[] }>();
    expect(points).toContainEqual({ at: rtt.timestamp, value: rtt.value, text: null });
  }, 40_000);
});
