import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceApp } from '../create-service-app.js';
import { ProblemError } from '../problem/problem-error.js';
import { PROBLEM_ERROR_BODY, REASON_ERROR_BODY } from './error-body.js';
import { errorResponse, errorResponses } from './error-responses.js';
import { checkOpenApiCoverage } from './openapi-coverage.js';
import { createOpenApiReplyCheck } from './openapi-reply-check.js';
import { withResponseHeaders } from './response-headers.js';
import type { OpenApiOptions } from './register-openapi.js';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses: Record<
    string,
    { description: string; headers?: object; content?: Record<string, { schema: Record<string, unknown> }> }
  >;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  security?: unknown[];
  components: { schemas?: Record<string, { properties?: Record<string, unknown> }>; securitySchemes?: object };
  paths: Record<string, Record<string, Operation>>;
}

const base: OpenApiOptions = {
  title: 'Test service',
  version: '1.2.3',
  description: 'A service for the test',
  errorBody: PROBLEM_ERROR_BODY,
  tags: [{ name: 'things', description: 'Things' }],
};

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(options: Partial<OpenApiOptions> = {}, routes?: (app: FastifyInstance) => void) {
  app = await createServiceApp({
    openApi: { ...base, ...options },
    beforeRoutes: async (instance) => {
      routes?.(instance);
      await Promise.resolve();
    },
  });
  await app.ready();
  const response = await app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  return { app, document: response.json<Document>() };
}

const thingRoute = (instance: FastifyInstance) => {
  instance.get(
    '/things/:thingId',
    {
      schema: {
        tags: ['things'],
        operationId: 'getThing',
        summary: 'One thing',
        params: { type: 'object', properties: { thingId: { type: 'string' } }, required: ['thingId'] },
        response: {
          200: { description: 'The thing', type: 'object', properties: { id: { type: 'string' } } },
          ...errorResponses(PROBLEM_ERROR_BODY, { 406: true }),
          404: withResponseHeaders(errorResponse(PROBLEM_ERROR_BODY, 'No such thing'), {
            'x-thing-hint': { type: 'string', description: 'where to look' },
          }),
          422: errorResponse(PROBLEM_ERROR_BODY, 'Broken thing', {
            errors: { type: 'array', items: { type: 'object', required: ['line'] } },
          }),
        },
      },
    },
    (request, reply) => {
      const { thingId } = request.params as { thingId: string };
      if (thingId === 'missing') {
        throw new ProblemError({
          code: 'X_ERR_MISSING',
          status: 404,
          title: 'Missing',
          detail: 'No thing',
          extensions: { thingId },
        });
      }
      return reply.send({ id: thingId });
    },
  );
};

describe('registerOpenApi', () => {
  it('serves OpenAPI 3.0.3 with info, a relative server and the error body as a named component', async () => {
    const { document } = await build({}, thingRoute);
    expect(document.openapi).toBe('3.0.3');
    expect(document.info).toMatchObject({ title: 'Test service', version: '1.2.3' });
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) as string }]);
    expect(Object.keys(document.components.schemas ?? {})).toContain('Problem');
    const operation = document.paths['/things/{thingId}']?.get;
    expect(operation?.operationId).toBe('getThing');
    expect(operation?.responses['404']).toEqual({
      description: 'No such thing',
      headers: { 'x-thing-hint': { description: 'where to look', schema: { type: 'string' } } },
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    });
    expect(operation?.responses['406']?.description).toMatch(/Accept/);
    expect(operation?.responses['422']?.content?.['application/problem+json']?.schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Problem' },
        { properties: { errors: { type: 'array', items: { type: 'object', required: ['line'] } } } },
      ],
    });
  });

  it('lists the configured server first and states the default security requirement and schemes', async () => {
    const { document } = await build({
      serverUrl: 'http://127.0.0.1:4100/',
      errorBody: REASON_ERROR_BODY,
      securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
      security: [{ basic: [] }],
    });
    expect(document.servers.map((s) => s.url)).toEqual(['http://127.0.0.1:4100', '/']);
    expect(document.security).toEqual([{ basic: [] }]);
    expect(document.components.securitySchemes).toEqual({ basic: { type: 'http', scheme: 'basic' } });
    expect(document.components.schemas?.ErrorReason?.properties).toHaveProperty('error');
  });

  it('documents /healthz as a public operation and serves the UI at /docs', async () => {
    const { app: built, document } = await build();
    expect(document.paths['/healthz']?.get).toMatchObject({ operationId: 'getHealth', security: [] });
    const ui = await built.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });

  it('still answers routes normally: the error body schema does not reshape replies', async () => {
    const { app: built } = await build({}, thingRoute);
    const found = await built.inject({ method: 'GET', url: '/things/a1' });
    expect(found.json()).toEqual({ id: 'a1' });
    const missing = await built.inject({ method: 'GET', url: '/things/missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(missing.json()).toEqual({
      type: 'urn:triad:problem:X_ERR_MISSING',
      title: 'Missing',
      status: 404,
      detail: 'No thing',
      instance: '/things/missing',
      code: 'X_ERR_MISSING',
      requestId: missing.headers['x-request-id'],
      thingId: 'missing',
    });
  });
});

describe('errorResponses', () => {
  it('refuses statuses below 400 and statuses without a default description', () => {
    expect(() => errorResponses(PROBLEM_ERROR_BODY, { 200: 'fine' })).toThrow(/not an error status/);
    expect(() => errorResponses(PROBLEM_ERROR_BODY, { 418: true })).toThrow(/No default description/);
  });
});

describe('checkOpenApiCoverage', () => {
  it('reports nothing when every route is documented completely', async () => {
    const { app: built } = await build({}, thingRoute);
    expect(await checkOpenApiCoverage(built)).toEqual({
      undocumented: [],
      unregistered: [],
      incomplete: [],
      trailingSlashes: [],
      noClientErrors: [],
    });
  });

  it('reports hidden routes as undocumented and operations without operationId or summary', async () => {
    const { app: built } = await build({}, (instance) => {
      instance.get('/hidden', { schema: { hide: true } }, () => 'x');
      instance.post('/bare/', () => 'x');
    });
    const coverage = await checkOpenApiCoverage(built);
    expect(coverage.undocumented).toEqual(['GET /hidden']);
    expect(coverage.unregistered).toEqual([]);
    expect(coverage.incomplete).toEqual(['POST /bare/: no operationId, no summary']);
    expect(coverage.trailingSlashes).toEqual(['/bare/']);
  });

  it('reports operations that take input but document no client error', async () => {
    const { app: built } = await build({}, (instance) => {
      const schema = (operationId: string, response: object) => ({
        operationId,
        summary: operationId,
        querystring: { type: 'object', properties: { q: { type: 'string' } } },
        response,
      });
      instance.get('/quiet', { schema: schema('quiet', { 200: { description: 'ok', type: 'string' } }) }, () => 'x');
      instance.get(
        '/careful',
        {
          schema: schema('careful', {
            200: { description: 'ok', type: 'string' },
            ...errorResponses(PROBLEM_ERROR_BODY, { 400: true }),
          }),
        },
        () => 'x',
      );
    });
    const coverage = await checkOpenApiCoverage(built);
    expect(coverage.noClientErrors).toEqual(['GET /quiet']);
    expect(coverage.undocumented).toEqual([]);
  });

  it('refuses an app that does not record its routes', async () => {
    app = await createServiceApp();
    await app.ready();
    await expect(checkOpenApiCoverage(app)).rejects.toThrow(/openapi\.json answered 404/);
  });
});

describe('createOpenApiReplyCheck', () => {
  it('accepts replies the document describes and names every disagreement of the others', async () => {
    const { app: built, document } = await build({}, thingRoute);
    const check = createOpenApiReplyCheck(document);
    const ok = await built.inject({ method: 'GET', url: '/things/a1' });
    expect(check('GET', '/things/{thingId}', ok)).toEqual([]);
    const missing = await built.inject({ method: 'GET', url: '/things/missing' });
    expect(check('GET', '/things/{thingId}', missing)).toEqual([]);
    expect(check('GET', '/things/{thingId}', { ...missing, body: '{"title": 3}' })).toEqual([
      "GET /things/{thingId} 404: (root) must have required property 'type'",
      "GET /things/{thingId} 404: (root) must have required property 'status'",
      "GET /things/{thingId} 404: (root) must have required property 'code'",
      "GET /things/{thingId} 404: (root) must have required property 'requestId'",
      'GET /things/{thingId} 404: /title must be string',
    ]);
    expect(check('GET', '/things/{thingId}', { ...ok, statusCode: 409 })).toEqual([
      'GET /things/{thingId}: status 409 is not documented',
    ]);
    expect(check('GET', '/things/{thingId}', { ...ok, headers: { 'content-type': 'text/html' } })).toEqual([
      'GET /things/{thingId} 200: text/html is not listed (application/json)',
    ]);
    expect(check('POST', '/things/{thingId}', ok)).toEqual(['POST /things/{thingId} is not documented']);
  });
});
