import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceApp } from './create-service-app.js';
import { kitProblems } from './errors.js';
import { createLogger } from './logger.js';
import { ProblemError } from './problem/problem-error.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function build(options: Parameters<typeof createServiceApp>[0] = {}): Promise<FastifyInstance> {
  const app = await createServiceApp(options);
  apps.push(app);
  app.post(
    '/echo',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 2 }, count: { type: 'integer', maximum: 10 } },
        },
      },
    },
    (request) => ({ received: request.body }),
  );
  app.post('/big', { bodyLimit: 4096 }, (request) => ({ size: JSON.stringify(request.body).length }));
  app.get('/known', () => {
    throw new ProblemError({
      code: 'X_ERR_GONE',
      status: 410,
      title: 'Gone away',
      detail: 'It left',
      extensions: { since: 'today', status: 999 },
    });
  });
  app.get('/crash', () => {
    throw new Error('database password is hunter2');
  });
  return app;
}

function problem(response: { headers: Record<string, unknown>; json(): unknown }): Record<string, unknown> {
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  return response.json() as Record<string, unknown>;
}

describe('createServiceApp problems', () => {
  it('answers a ProblemError with its status, title, detail and extensions, keeping standard members', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/known?x=1' });
    expect(response.statusCode).toBe(410);
    const body = problem(response);
    expect(body).toMatchObject({
      type: 'urn:triad:problem:X_ERR_GONE',
      title: 'Gone away',
      status: 410,
      detail: 'It left',
      instance: '/known',
      code: 'X_ERR_GONE',
      since: 'today',
    });
    expect(body.requestId).toBe(response.headers['x-request-id']);
  });

  it('lists every schema violation with its JSON pointer', async () => {
    const app = await build();
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { count: 11, extra: true } });
    expect(response.statusCode).toBe(400);
    const body = problem(response);
    expect(body.code).toBe('SVC_ERR_REQUEST_VALIDATION');
    const errors = body.errors as { in: string; pointer: string; keyword: string }[];
    expect(errors.map((e) => [e.in, e.pointer, e.keyword]).sort()).toEqual([
      ['body', '/count', 'maximum'],
      ['body', '/extra', 'additionalProperties'],
      ['body', '/name', 'required'],
    ]);
  });

  it('hides unexpected errors behind a 500 without message or stack, and logs them', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const app = await build({ logger: createLogger({ level: 'info', destination }) });
    const response = await app.inject({ method: 'GET', url: '/crash', headers: { 'x-request-id': 'trace-me-1' } });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('at ');
    expect(problem(response).code).toBe('SVC_ERR_INTERNAL');
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request failed');
    expect(logged?.reqId).toBe('trace-me-1');
    expect(JSON.stringify(logged?.err)).toContain('hunter2');
  });

  it('answers unknown routes with a 404 problem', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/nowhere?q=1' });
    expect(response.statusCode).toBe(404);
    expect(problem(response)).toMatchObject({ code: 'SVC_ERR_ROUTE_NOT_FOUND', instance: '/nowhere' });
  });

  it('answers a body above the route limit with 413 and the limit', async () => {
    const app = await build();
    const response = await app.inject({ method: 'POST', url: '/big', payload: { text: 'x'.repeat(5000) } });
    expect(response.statusCode).toBe(413);
    expect(problem(response)).toMatchObject({ code: 'SVC_ERR_BODY_TOO_LARGE', limit: 4096 });
  });

  it('applies the app-wide body limit to ordinary routes', async () => {
    const app = await build({ bodyLimit: 100 });
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'x'.repeat(200) } });
    expect(response.statusCode).toBe(413);
    expect(problem(response).limit).toBe(100);
  });

  it('answers an unsupported media type with 415', async () => {
    const app = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: 'name: x',
      headers: { 'content-type': 'text/csv' },
    });
    expect(response.statusCode).toBe(415);
    const body = problem(response);
    expect(body).toMatchObject({ code: 'SVC_ERR_MEDIA_TYPE_UNSUPPORTED' });
    expect(JSON.stringify(body)).not.toContain('text/csv');
  });

  it('answers malformed JSON with 400 SVC_ERR_JSON_SYNTAX', async () => {
    const app = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(problem(response).code).toBe('SVC_ERR_JSON_SYNTAX');
  });

  it('answers an empty JSON body with 400 SVC_ERR_BODY_EMPTY', async () => {
    const app = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(problem(response).code).toBe('SVC_ERR_BODY_EMPTY');
  });

  it('refuses JSON nested deeper than the limit with 400 SVC_ERR_JSON_TOO_DEEP', async () => {
    const app = await build({ maxJsonDepth: 8 });
    const deep = '['.repeat(9) + ']'.repeat(9);
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(problem(response)).toMatchObject({ code: 'SVC_ERR_JSON_TOO_DEEP', maxDepth: 8 });
    const ok = await app.inject({
      method: 'POST',
      url: '/big',
      payload: '['.repeat(8) + ']'.repeat(8),
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses __proto__ keys, even when written with escapes', async () => {
    const app = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/big',
      payload: '{"a": {"\\u005f_proto__": {"admin": true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(problem(response)).toMatchObject({ code: 'SVC_ERR_JSON_FORBIDDEN_KEY', pointer: '/a/__proto__' });
  });
});

describe('createServiceApp request ids', () => {
  it('echoes a sane incoming x-request-id', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc.DEF_123-x' } });
    expect(response.headers['x-request-id']).toBe('abc.DEF_123-x');
  });

  it('replaces an insane or too long x-request-id with a generated one', async () => {
    const app = await build();
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
      const response = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } });
      const id = response.headers['x-request-id'];
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('generates distinct ids when none is sent', async () => {
    const app = await build();
    const a = await app.inject({ method: 'GET', url: '/healthz' });
    const b = await app.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('createServiceApp health', () => {
  it('answers /healthz 200 ok once ready', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 shutting-down to a probe handled after shutdown began', async () => {
    const app = await createServiceApp();
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    // Hold the probe before its handler runs until shutdown has started (preClose ran).
    app.addHook('onRequest', () => gate);
    app.addHook('preClose', (done) => {
      openGate();
      done();
    });
    await app.ready();
    const probe = app.inject({ method: 'GET', url: '/healthz' });
    await new Promise((resolve) => setImmediate(resolve));
    await app.close();
    const response = await probe;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'shutting-down' });
  });

  it('answers 503 unavailable when the readiness check fails', async () => {
    const app = await build({
      health: {
        check: () => Promise.reject(new Error('db down')),
      },
    });
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable' });
  });

  it('adds the extra health fields to every reply, ok or not', async () => {
    let owned = 2;
    let fail = false;
    const app = await build({
      health: {
        check: () => (fail ? Promise.reject(new Error('db down')) : Promise.resolve()),
        fields: {
          schema: { instance: { type: 'string' }, owned: { type: 'integer' } },
          values: () => ({ instance: 'i-1', owned }),
        },
      },
    });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
      status: 'ok',
      instance: 'i-1',
      owned: 2,
    });
    owned = 3;
    fail = true;
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', instance: 'i-1', owned: 3 });
  });
});

describe('kitProblems catalogue', () => {
  it('pins every code to its status', () => {
    const statuses = Object.fromEntries(Object.entries(kitProblems.definitions).map(([code, d]) => [code, d.status]));
    expect(statuses).toEqual({
      SVC_ERR_REQUEST_VALIDATION: 400,
      SVC_ERR_JSON_SYNTAX: 400,
      SVC_ERR_JSON_TOO_DEEP: 400,
      SVC_ERR_JSON_FORBIDDEN_KEY: 400,
      SVC_ERR_BODY_EMPTY: 400,
      SVC_ERR_CONTENT_LENGTH_INVALID: 400,
      SVC_ERR_BAD_REQUEST: 400,
      SVC_ERR_ROUTE_NOT_FOUND: 404,
      SVC_ERR_METHOD_NOT_ALLOWED: 405,
      SVC_ERR_REQUEST_TIMEOUT: 408,
      SVC_ERR_BODY_TOO_LARGE: 413,
      SVC_ERR_URI_TOO_LONG: 414,
      SVC_ERR_MEDIA_TYPE_UNSUPPORTED: 415,
      SVC_ERR_HEADERS_TOO_LARGE: 431,
      SVC_ERR_INTERNAL: 500,
      SVC_ERR_UNAVAILABLE: 503,
      SVC_ERR_TOO_MANY_CONNECTIONS: 503,
    });
  });
});
