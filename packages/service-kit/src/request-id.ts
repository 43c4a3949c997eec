import { randomUUID } from 'node:crypto';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';
import fp from 'fastify-plugin';

/** Header that carries the request id in and out. */
export const REQUEST_ID_HEADER = 'x-request-id';

const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** True when an incoming id may be reused: 1 to 128 characters of `[A-Za-z0-9._-]`. */
export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE_ID.test(value);
}

/**
 * Fastify's `genReqId`: the incoming `x-request-id` when sane, otherwise a fresh UUID.
 * (Fastify's own `requestIdHeader` would take any header value verbatim.)
 */
export function generateRequestId(request: RawRequestDefaultExpression): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return isSaneRequestId(incoming) ? incoming : randomUUID();
}

/** Echoes the request id in the `x-request-id` response header of every reply, errors included. */
export const requestIdEcho = fp(
  function requestIdEchoPlugin(app: FastifyInstance, _options: unknown, done: (error?: Error) => void) {
    app.addHook('onRequest', (request, reply, hookDone) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      hookDone();
    });
    done();
  },
  { name: '@triad/service-kit/request-id', fastify: '5.x' },
);
