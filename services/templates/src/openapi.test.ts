import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { checkOpenApiCoverage, createOpenApiReplyCheck, type ReplyLike } from '@triad/service-kit';
import { sampleTemplate, sampleTemplateYaml } from './test-support/sample-templates.js';
import { buildTestApp } from './test-support/templates-test-app.js';
import type { TemplatesDatabase } from './repositories/templates-tables.js';

interface Schema {
  readonly $ref?: string;
  readonly allOf?: readonly Schema[];
  readonly properties?: Readonly<Record<string, Schema>>;
}
interface Operation {
  readonly operationId?: string;
  readonly security?: readonly unknown[];
  readonly requestBody?: { readonly content: Readonly<Record<string, unknown>> };
  readonly responses: Readonly<
    Record<
      string,
      {
        readonly headers?: Readonly<Record<string, unknown>>;
        readonly content?: Readonly<Record<string, { readonly schema: Schema }>>;
      }
    >
  >;
}
interface Document {
  readonly openapi: string;
  readonly servers: readonly { readonly url: string }[];
  readonly security?: readonly unknown[];
  readonly components: { readonly schemas?: Readonly<Record<string, unknown>> };
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
}

describeEachDatabase<TemplatesDatabase>('templates OpenAPI document', (getDb) => {
  let app: FastifyInstance;
  let document: Document;
  beforeAll(async () => {
    app = await buildTestApp(getDb());
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json<Document>();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('documents every registered route and nothing else, each with operationId, summary and responses', async () => {
    expect(await checkOpenApiCoverage(app)).toEqual({
      undocumented: [],
      unregistered: [],
      incomplete: [],
      trailingSlashes: [],
      noClientErrors: [],
    });
  });

  it('lists every path, a relative server, no authentication and the Problem component', () => {
    expect(document.openapi).toBe('3.0.3');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/devices',
      '/devices/discover',
      '/devices/{id}',
      '/devices/{id}/alarms',
      '/devices/{id}/alarms/{alarmId}/acknowledge',
      '/devices/{id}/alarms/{alarmId}/unacknowledge',
      '/devices/{id}/events',
      '/devices/{id}/history',
      '/devices/{id}/stream',
      '/devices/{id}/values',
      '/healthz',
      '/match',
      '/metrics',
      '/templates',
      '/templates/{templateId}',
      '/templates/{templateId}/{templateVersion}',
      '/templates/{templateId}/{templateVersion}/evaluate',
      '/validate',
    ]);
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) as string }]);
    expect(document.security).toEqual([]);
    expect(document.components.schemas).toHaveProperty('Problem');
  });

  it('describes a template write: JSON or YAML body, 409, 413, 415 and 422 with typed errors', () => {
    const put = document.paths['/templates/{templateId}/{templateVersion}']?.put;
    expect(Object.keys(put?.requestBody?.content ?? {})).toEqual(
      expect.arrayContaining(['application/json', 'application/yaml']),
    );
    for (const status of ['400', '409', '413', '415', '500']) {
      expect(put?.responses[status]?.content?.['application/problem+json']?.schema, status).toEqual({
        $ref: '#/components/schemas/Problem',
      });
    }
    const invalid = put?.responses['422']?.content?.['application/problem+json']?.schema;
    expect(invalid?.allOf?.[0]).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(invalid?.allOf?.[1]?.properties).toHaveProperty('errors');
    expect(put?.responses['201']?.headers).toHaveProperty(['Location']);
    expect(document.paths['/templates']?.post?.responses['201']?.headers).toHaveProperty(['Location']);
  });

  it('documents 406 on a template read and 404 where a template version is named', () => {
    const one = document.paths['/templates/{templateId}/{templateVersion}'];
    expect(one?.get?.responses).toHaveProperty('406');
    expect(Object.keys(one?.get?.responses['200']?.headers ?? {})).toEqual(['ETag', 'Last-Modified', 'Vary']);
    for (const method of ['get', 'delete'] as const) expect(one?.[method]?.responses, method).toHaveProperty('404');
    expect(document.paths['/templates/{templateId}/{templateVersion}/evaluate']?.post?.responses).toHaveProperty('404');
  });

  it('describes the replies the server really sends, successes and errors', async () => {
    const check = createOpenApiReplyCheck(document);
    const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object | string, type?: string) =>
      app.inject({
        method,
        url,
        ...(payload !== undefined ? { payload } : {}),
        headers: type ? { 'content-type': type } : {},
      });
    const one = '/templates/{templateId}/{templateVersion}';
    const id = 'OpenAPI%20Probe';
    const template = sampleTemplate({ templateId: 'OpenAPI Probe', templateVersion: '2.0.0' });
    const replies: [string, string, ReplyLike][] = [
      ['POST', '/templates', await inject('POST', '/templates', template)],
      ['POST', '/templates', await inject('POST', '/templates', template)],
      ['POST', '/templates', await inject('POST', '/templates', { templateId: 'x' })],
      ['POST', '/templates', await inject('POST', '/templates', '<xml/>', 'application/xml')],
      [
        'PUT',
        one,
        await inject(
          'PUT',
          `/templates/${id}/3.0.0`,
          sampleTemplateYaml({ templateId: 'OpenAPI Probe', templateVersion: '3.0.0' }),
          'application/yaml',
        ),
      ],
      ['PUT', one, await inject('PUT', `/templates/${id}/9.9.9`, template)],
      ['GET', '/templates', await inject('GET', '/templates?latest=true&limit=5')],
      ['GET', '/templates', await inject('GET', '/templates?limit=0')],
      ['GET', '/templates/{templateId}', await inject('GET', `/templates/${id}`)],
      ['GET', '/templates/{templateId}', await inject('GET', '/templates/Nobody')],
      ['GET', one, await inject('GET', `/templates/${id}/2.0.0`)],
      ['GET', one, await inject('GET', `/templates/${id}/3.0.0?format=source`)],
      [
        'GET',
        one,
        await app.inject({ method: 'GET', url: `/templates/${id}/2.0.0`, headers: { accept: 'text/html' } }),
      ],
      ['POST', '/validate', await inject('POST', '/validate', template)],
      ['POST', '/match', await inject('POST', '/match', { description: 'switch' })],
      ['POST', '/match', await inject('POST', '/match', {})],
      [
        'POST',
        `${one}/evaluate`,
        await inject('POST', `/templates/${id}/2.0.0/evaluate`, {
          updates: [{ datapointSetId: 'system', datapointId: 'uptime', rawValue: 5 }],
        }),
      ],
      ['POST', `${one}/evaluate`, await inject('POST', `/templates/${id}/0.0.1/evaluate`, { updates: [] })],
      ['DELETE', one, await inject('DELETE', `/templates/${id}/3.0.0`)],
      ['DELETE', '/templates/{templateId}', await inject('DELETE', `/templates/${id}`)],
      ['DELETE', '/templates/{templateId}', await inject('DELETE', `/templates/${id}`)],
      ['GET', '/healthz', await inject('GET', '/healthz')],
      ['GET', '/metrics', await inject('GET', '/metrics')],
    ];
    const statuses = new Set(replies.map(([, , reply]) => reply.statusCode));
    expect([...statuses].sort()).toEqual([200, 201, 204, 400, 404, 406, 409, 415, 422]);
    expect(replies.flatMap(([method, path, reply]) => check(method, path, reply))).toEqual([]);
  });

  it('serves Swagger UI at /docs and Prometheus metrics at /metrics', async () => {
    const ui = await app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    await app.inject({ method: 'GET', url: '/templates' });
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^http_requests_total\{method="GET",route="\/templates",status_code="200"\} [1-9]/m);
  });
});
