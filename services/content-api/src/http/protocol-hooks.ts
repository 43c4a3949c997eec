import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildProblemDocument, PROBLEM_MEDIA_TYPE, ProblemError } from '@triad/service-kit';
import { contentProblems, SPEC_PROBLEM_TYPES, type ContentProblemCode } from '../errors.js';
import type { AccessPolicy } from '../policies/access-policy.js';
import {
  acceptsContentMediaType,
  CONTENT_MEDIA_TYPE,
  REQUISITIONER_HEADER,
  REQUISITIONER_PATTERN,
} from './media-types.js';

export interface ProtocolOptions {
  /** Decides who may make a content call. */
  readonly access: Pick<AccessPolicy, 'require'>;
  /** Base of the spec's problem types, e.g. `https://developers.example.com`. */
  readonly errorsBase: string;
}

/**
 * Installs, in the calling plugin's scope, the checks every content call goes through, in this
 * order: bearer token (401/403), `Accept` exactly the versioned media type (406, wildcards
 * included), requisitioner id header (400). Also installs the scope's error handler, which
 * answers content problems with the spec's `type` URIs and leaves other errors to the kit, and
 * drops any `Cache-Control` a handler set before failing: an error reply is never cached.
 */
export function useContentProtocol(app: FastifyInstance, options: ProtocolOptions): void {
  app.addHook('onRequest', async (request) => {
    await options.access.require(request.headers.authorization, 'content');
    if (!acceptsContentMediaType(request.headers.accept)) {
      throw contentProblems.create('CONTENT_ERR_NOT_ACCEPTABLE', `Accept must be exactly ${CONTENT_MEDIA_TYPE}`, {
        acceptable: [CONTENT_MEDIA_TYPE],
      });
    }
    const requisitioner = request.headers[REQUISITIONER_HEADER];
    if (typeof requisitioner !== 'string' || !REQUISITIONER_PATTERN.test(requisitioner)) {
      throw contentProblems.create(
        'CONTENT_ERR_REQUISITIONER_INVALID',
        `Header ${REQUISITIONER_HEADER} must ${requisitioner === undefined ? 'be present and ' : ''}` +
          `match ${REQUISITIONER_PATTERN.source}`,
        { header: REQUISITIONER_HEADER },
      );
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode >= 400) reply.removeHeader('cache-control');
  });
  app.setErrorHandler(async (error, request, reply) => {
    if (!(error instanceof ProblemError) || !error.code.startsWith('CONTENT_ERR_')) throw error;
    request.log.info({ code: error.code, status: error.status }, `request refused: ${error.title}`);
    return sendContentProblem(request, reply, error, options.errorsBase);
  });
}

function sendContentProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ProblemError,
  errorsBase: string,
): FastifyReply {
  const document = {
    ...buildProblemDocument({
      code: error.code,
      status: error.status,
      title: error.title,
      detail: error.detail,
      instance: request.url.split('?')[0] ?? request.url,
      requestId: String(request.id),
      extensions: error.extensions,
    }),
  };
  const suffix = SPEC_PROBLEM_TYPES[error.code as ContentProblemCode];
  if (suffix) document.type = errorsBase.replace(/\/+$/, '') + suffix;
  if (error.status === 401)
    reply.header(
      'www-authenticate',
      'Bearer realm="content-api", error="invalid_token", ' +
        `error_description="${(error.detail ?? '').replaceAll('"', "'")}"`,
    );
  return reply.status(error.status).type(PROBLEM_MEDIA_TYPE).send(JSON.stringify(document));
}
