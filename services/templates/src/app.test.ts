import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { buildTestApp } from './test-support/templates-test-app.js';

describeEachDatabase('templates app', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(getDb());
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers /healthz with 200 ok when the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('serves an OpenAPI document describing every route with its responses', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/healthz',
        '/match',
        '/templates',
        '/templates/{templateId}',
        '/templates/{templateId}/{templateVersion}',
        '/templates/{templateId}/{templateVersion}/evaluate',
        '/validate',
      ].sort(),
    );
    const one = document.paths['/templates/{templateId}/{templateVersion}'];
    expect(Object.keys(one).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(one.put.requestBody.content)).toEqual(
      expect.arrayContaining(['application/json', 'application/yaml']),
    );
    expect(one.put.responses['422'].content['application/problem+json'].schema.properties.errors).toBeDefined();
    expect(
      document.paths['/match'].post.responses['200'].content['application/json'].schema.properties.items,
    ).toBeDefined();
  });

  it('serves the browsable API page at /docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });

  it('answers an unknown route with a 404 problem', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json().code).toBe('SVC_ERR_ROUTE_NOT_FOUND');
  });
});
