import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';
import { pingTemplate } from '../../test-support/ping-template.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';

const ADMIN = 'metrics-admin-token-0123456789';

describeEachDatabase<TemplatesDatabase>('GET /metrics device values', (getDb) => {
  let app: FastifyInstance;
  let id: string;
  beforeAll(async () => {
    app = await buildTestApp(getDb(), { devicesReadAccess: 'token', adminToken: ADMIN });
    // An admin token is set, so writes need it too.
    const headers = { authorization: `Bearer ${ADMIN}` };
    await app.inject({ method: 'POST', url: '/templates', headers, payload: pingTemplate('1.0.0', 1e9) });
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      headers,
      payload: {
        name: 'loopback',
        templateId: 'Ping Check',
        templateVersion: '1.0.0',
        variables: { ICMP_IPAddress: '127.0.0.1' },
        drivers: { 'svc-ds-drv-icmp': { count: 1, timeout: 500 } },
      },
    });
    id = created.json<{ id: string }>().id;
  }, 30_000);
  afterAll(async () => {
    await app?.close();
  });

  const scrape = async (token?: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/metrics',
        ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
      })
    ).body;

  it('shows the current values of collected devices to a caller who may read devices', async () => {
    const labels = `device="${id}",name="loopback",set="reachability",datapoint="roundTripTime"`;
    const sample = new RegExp(`^triad_device_value\\{${labels}\\} [0-9.e+-]+$`, 'm');
    await expect.poll(() => scrape(ADMIN), { timeout: 20_000 }).toMatch(sample);
    const text = await scrape(ADMIN);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(/^triad_device_history_written_total \d+$/m);
  });

  it('leaves device values out for a caller without the right, answering the rest', async () => {
    const text = await scrape();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).not.toContain('triad_device_value');
  });
});
