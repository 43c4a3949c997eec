import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { classifyError, ProblemError } from '@triad/service-kit';
import { nodeManagerProblems, reasonOf, type NodeManagerProblemCode } from '../errors.js';

/** Realm named in `WWW-Authenticate` on 401 replies. */
export const AUTH_REALM = 'triad-node-manager';

/**
 * Kit codes (`SVC_ERR_*`) the node manager answers under a code of its own; other client errors are
 * `invalid_request`.
 */
const KIT_CODES: Readonly<Record<string, NodeManagerProblemCode>> = {
  SVC_ERR_REQUEST_VALIDATION: 'NM_ERR_INVALID_REQUEST',
  SVC_ERR_BODY_TOO_LARGE: 'NM_ERR_BODY_TOO_LARGE',
  SVC_ERR_MEDIA_TYPE_UNSUPPORTED: 'NM_ERR_UNSUPPORTED_MEDIA_TYPE',
  SVC_ERR_INTERNAL: 'NM_ERR_INTERNAL',
};

/**
 * Installs, in `app`'s context (the `/api` scope), the spec's error shape. Errors are classified
 * by service-kit's `classifyError`, as in the other services, and reshaped here: every failure is
 * `{error: reason}` with the catalogue status (400 for refused input), 401 carries
 * `WWW-Authenticate: Basic`, route-schema violations are 400 `invalid_request`, unknown `/api`
 * routes 404 `route_not_found`, and anything unexpected is logged and answered 500 `internal`.
 */
export function useApiErrorShape(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
    const { status, code } = reshape(error, request);
    if (status >= 500) request.log.error({ err: error, code }, 'request failed');
    else request.log.info({ code, status, detail: error.message }, 'request refused');
    // Not for the console's script calls (X-Requested-With): a browser would raise its own password dialog.
    if (status === 401 && request.headers['x-requested-with'] !== 'XMLHttpRequest')
      reply.header('www-authenticate', `Basic realm="${AUTH_REALM}", charset="UTF-8"`);
    return sendError(reply, status, code);
  });
  app.setNotFoundHandler(async (_request, reply) => sendError(reply, 404, 'NM_ERR_ROUTE_NOT_FOUND'));
}

/**
 * The status and code of a failure: catalogue errors (the node manager's and the kit's, e.g. a
 * JSON syntax error of the body parser) keep theirs; what the kit classifies under its own codes
 * maps to the node manager's (413, 415, 500), every other client error to 400 `invalid_request`.
 */
function reshape(error: FastifyError | Error, request: FastifyRequest): { status: number; code: string } {
  const classified = classifyError(error, request);
  if (error instanceof ProblemError) return { status: classified.status, code: classified.code };
  const code = KIT_CODES[classified.code] ?? 'NM_ERR_INVALID_REQUEST';
  return { status: nodeManagerProblems.definitions[code].status, code };
}

function sendError(reply: FastifyReply, status: number, code: string): FastifyReply {
  return reply
    .status(status)
    .type('application/json')
    .send(JSON.stringify({ error: reasonOf(code) }));
}
