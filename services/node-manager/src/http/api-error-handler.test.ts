import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJsonBodyParser } from '@triad/service-kit';
import { nmError } from '../errors.js';
import { useApiErrorShape } from './api-error-handler.js';

interface ErrorReply {
  readonly error: string;
}

describe('useApiErrorShape', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ bodyLimit: 64 });
    useJsonBodyParser(app);
    useApiErrorShape(app);
    app.get('/boom', () => {
      throw new Error('secret detail');
    });
    app.get('/gone', () => {
      throw nmError('NM_ERR_NODE_NOT_FOUND');
    });
    app.post(
      '/echo',
      { schema: { body: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } } },
      (request) => request.body,
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (payload: string, type = 'application/json') =>
    app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': type }, payload });

  it('answers catalogue errors with their status and reason', async () => {
    const response = await app.inject({ url: '/gone' });
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorReply>()).toEqual({ error: 'node_not_found' });
  });

  it('hides unexpected errors behind 500 internal', async () => {
    const response = await app.inject({ url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"error":"internal"}');
  });

  it('reshapes what the kit classifies: schema violations 400, size 413, media type 415', async () => {
    const invalid = await post('{"b":1}');
    expect([invalid.statusCode, invalid.json<ErrorReply>()]).toEqual([400, { error: 'invalid_request' }]);
    const large = await post(JSON.stringify({ a: 'x'.repeat(100) }));
    expect([large.statusCode, large.json<ErrorReply>()]).toEqual([413, { error: 'body_too_large' }]);
    const text = await post('<a/>', 'application/xml');
    expect([text.statusCode, text.json<ErrorReply>()]).toEqual([415, { error: 'unsupported_media_type' }]);
  });

  it("keeps the body parser's own catalogue codes (JSON syntax) as reasons", async () => {
    const response = await post('{"a":');
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorReply>()).toEqual({ error: 'json_syntax' });
  });

  it('answers unknown routes 404 route_not_found as JSON', async () => {
    const response = await app.inject({ url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json<ErrorReply>()).toEqual({ error: 'route_not_found' });
  });
});
