import type { FastifyError, FastifyInstance } from 'fastify';
import { ProblemError } from '@triad/service-kit';
import { nodeManagerProblems, reasonOf, type NodeManagerProblemCode } from '../errors.js';

/** Realm named in `WWW-Authenticate` on 401 replies. */
export const AUTH_REALM = 'triad-node-manager';

const FASTIFY_CODES: Readonly<Record<string, NodeManagerProblemCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'NM_ERR_BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'NM_ERR_UNSUPPORTED_MEDIA_TYPE',
};

/**
 * Installs, in `app`'s context (the `/api` scope), the spec's error shape: every failure is
 * `{error: reason}` with the catalogue status (400 for refused input), 401 carries
 * `WWW-Authenticate: Basic`, route-schema violations are 400 `invalid_request`, unknown `/api`
 * routes 404 `route_not_found`, and anything unexpected is logged and answered 500 `internal`.
 */
export function useApiErrorShape(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
    const { status, code } = classify(error);
    if (status >= 500) request.log.error({ err: error, code }, 'request failed');
    else request.log.info({ code, status, detail: error.message }, 'request refused');
    if (status === 401) reply.header('www-authenticate', `Basic realm="${AUTH_REALM}", charset="UTF-8"`);
    return reply
      .status(status)
      .type('application/json')
      .send(JSON.stringify({ error: reasonOf(code) }));
  });
  app.setNotFoundHandler(async (_request, reply) => {
    return reply
      .status(404)
      .type('application/json')
      .send(JSON.stringify({ error: reasonOf('NM_ERR_ROUTE_NOT_FOUND') }));
  });
}

function classify(error: FastifyError | Error): { status: number; code: string } {
  if (error instanceof ProblemError) return { status: error.status, code: error.code };
  const fastifyError = error as FastifyError;
  if (Array.isArray(fastifyError.validation)) return { status: 400, code: 'NM_ERR_INVALID_REQUEST' };
  const status = fastifyError.statusCode;
  if (
    typeof fastifyError.code === 'string' &&
    fastifyError.code.startsWith('FST_') &&
    typeof status === 'number' &&
    status >= 400 &&
    status < 500
  ) {
    const mapped = FASTIFY_CODES[fastifyError.code];
    if (mapped) return { status: nodeManagerProblems.definitions[mapped].status, code: mapped };
    return { status: 400, code: 'NM_ERR_INVALID_REQUEST' };
  }
  return { status: 500, code: 'NM_ERR_INTERNAL' };
}
