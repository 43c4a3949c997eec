import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceApp } from './create-service-app.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(path?: string): Promise<FastifyInstance> {
  app = await createServiceApp({
    metrics: path === undefined ? {} : { path },
    beforeRoutes: async (instance) => {
      instance.get('/things/:id', (request, reply) =>
        reply.status((request.params as { id: string }).id === 'gone' ? 410 : 200).send('x'),
      );
      await Promise.resolve();
    },
  });
  await app.ready();
  return app;
}

/** The value of the sample with exactly these labels, or undefined. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('prometheusMetrics', () => {
  it('counts requests by method, route pattern and status, and serves the Prometheus text format', async () => {
    const built = await build();
    await built.inject({ method: 'GET', url: '/things/a' });
    await built.inject({ method: 'GET', url: '/things/b' });
    await built.inject({ method: 'GET', url: '/things/gone' });
    await built.inject({ method: 'GET', url: '/no/such/route' });
    const response = await built.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(sample(text, 'http_requests_total', 'method="GET",route="/things/:id",status_code="200"')).toBe(2);
    expect(sample(text, 'http_requests_total', 'method="GET",route="/things/:id",status_code="410"')).toBe(1);
    expect(sample(text, 'http_requests_total', 'method="GET",route="unmatched",status_code="404"')).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', 'method="GET",route="/things/:id",status_code="200"'),
    ).toBe(2);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('keeps the counts of two apps apart and serves at the configured path', async () => {
    const first = await build('/prometheus');
    await first.inject({ method: 'GET', url: '/things/a' });
    const other = await createServiceApp({ metrics: {} });
    await other.ready();
    try {
      const text = (await other.inject({ method: 'GET', url: '/metrics' })).body;
      expect(sample(text, 'http_requests_total', 'method="GET",route="/things/:id",status_code="200"')).toBe(undefined);
    } finally {
      await other.close();
    }
    expect((await first.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const own = (await first.inject({ method: 'GET', url: '/prometheus' })).body;
    expect(sample(own, 'http_requests_total', 'method="GET",route="/things/:id",status_code="200"')).toBe(1);
  });

  it('with path false serves no route and hands the rendering to exportTo', async () => {
    let render: (() => Promise<string>) | undefined;
    app = await createServiceApp({
      metrics: { path: false, exportTo: (r) => (render = r) },
      beforeRoutes: async (instance) => {
        instance.get('/things/:id', (_request, reply) => reply.send('x'));
        await Promise.resolve();
      },
    });
    await app.ready();
    await app.inject({ method: 'GET', url: '/things/a' });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const text = render ? await render() : '';
    expect(sample(text, 'http_requests_total', 'method="GET",route="/things/:id",status_code="200"')).toBe(1);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});
