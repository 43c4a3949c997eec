import type { FastifyReply } from 'fastify';

/**
 * Sends any JSON value, including bare strings such as `"ok"` (Fastify would send a string
 * payload as plain text).
 */
export function sendJson(reply: FastifyReply, value: unknown, status = 200): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(value));
}
