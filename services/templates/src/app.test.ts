import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import { buildTestApp } from './test-support/templates-test-app.js';
import type { TemplatesDatabase } from './repositories/templates-tables.js';

describeEachDatabase<TemplatesDatabase>('templates app', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(getDb(), {}, { instanceId: 'test-instance' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers /healthz with 200 ok, its instance id and its device count when the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', instance: 'test-instance', devicesOwned: 0 });
  });

  it('answers an unknown route with a 404 problem', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json<ProblemDocument>().code).toBe('SVC_ERR_ROUTE_NOT_FOUND');
  });
});
