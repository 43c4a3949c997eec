import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorCode } from '@triad/common';
import { kitProblems, type KitProblemCode } from '../errors.js';
import { ProblemError } from '../problem/problem-error.js';
import { PROBLEM_MEDIA_TYPE, buildProblemDocument } from '../problem/problem-document.js';
import { toRequestViolations } from '../problem/validation-problems.js';

/** Fastify's own client errors we name with kit codes; others keep their status under SVC_ERR_BAD_REQUEST. */
const FASTIFY_CODES: Readonly<Record<string, KitProblemCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'SVC_ERR_BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'SVC_ERR_MEDIA_TYPE_UNSUPPORTED',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'SVC_ERR_CONTENT_LENGTH_INVALID',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'SVC_ERR_BODY_EMPTY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'SVC_ERR_JSON_SYNTAX',
};

/** Options of `problemHandler`. */
export interface ProblemHandlerOptions {
  /**
   * Asked first for every unknown route; true when it answered (the console's client-side routes,
   * `serveConsole`). Default: nothing answers but the 404 problem.
   */
  readonly navigation?: (request: FastifyRequest, reply: FastifyReply) => boolean;
}

/**
 * Makes every error reply an `application/problem+json` document (RFC 9457):
 * - `ProblemError`: its own status, title, detail and extensions;
 * - route-schema violations: 400 `SVC_ERR_REQUEST_VALIDATION` with `errors: [{in, pointer, keyword, message}]`;
 * - Fastify's client errors: 413 body too large (with `limit`), 415 media type, 400 others, none
 *   echoing the request (see `framework-errors.ts` for what is refused before routing);
 * - client errors of other libraries (`http-errors` with `expose`, e.g. @fastify/static refusing a
 *   path): 403 and 404 as 404 `SVC_ERR_ROUTE_NOT_FOUND`, others as `SVC_ERR_BAD_REQUEST` with
 *   their status, logged at info without a stack;
 * - a request whose connection is already closed (the client aborted its body, a 408 was sent):
 *   one info line, nothing sent;
 * - anything else: logged with its stack, answered 500 `SVC_ERR_INTERNAL` without message or stack;
 * - unknown routes: 404 `SVC_ERR_ROUTE_NOT_FOUND` (unless `options.navigation` answers).
 * Every problem carries `code` and `requestId`. Registered once, at the root.
 */
export const problemHandler = fp(
  function problemHandlerPlugin(app: FastifyInstance, options: ProblemHandlerOptions, done: (error?: Error) => void) {
    app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
      if (clientGone(request, reply)) {
        // Nothing can be answered (the client hung up mid-body, or a 408 went out already): one
        // info line without a stack, so clients that abort cannot fill the log with errors.
        request.log.info({ reason: reasonOf(error) }, 'request abandoned: the connection is closed');
        return undefined;
      }
      const { status, code, title, detail, extensions } = classifyError(error, request);
      if (status >= 500) request.log.error({ err: error, code }, 'request failed');
      else request.log.info({ code, status }, `request refused: ${title}`);
      return sendProblem(request, reply, { status, code, title, detail, extensions });
    });
    app.setNotFoundHandler(async (request, reply) => {
      if (options.navigation?.(request, reply)) return reply;
      const def = kitProblems.definitions.SVC_ERR_ROUTE_NOT_FOUND;
      return sendProblem(request, reply, {
        status: def.status,
        code: 'SVC_ERR_ROUTE_NOT_FOUND',
        title: def.title,
        detail: `No route answers ${request.method} ${pathOf(request)}`,
      });
    });
    done();
  },
  { name: '@triad/service-kit/problem-handler', fastify: '5.x' },
);

/** What `sendProblem` needs; the handler fills `instance` and `requestId` from the request. */
export interface ProblemReplyInit {
  status: number;
  code: string;
  title: string;
  detail?: string | undefined;
  extensions?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * What `problemHandler` answers for `error`: a `ProblemError` as itself, route-schema violations
 * as `SVC_ERR_REQUEST_VALIDATION`, Fastify's client errors under kit codes (413, 415, 400 ...),
 * anything else as `SVC_ERR_INTERNAL` (500). Exported so a service with another wire shape
 * classifies the same way and only reshapes the result.
 */
export function classifyError(error: FastifyError | Error, request: FastifyRequest): ProblemReplyInit {
  if (error instanceof ProblemError) {
    return {
      status: error.status,
      code: error.code,
      title: error.title,
      detail: error.detail,
      extensions: error.extensions,
    };
  }
  const fastifyError = error as FastifyError;
  if (Array.isArray(fastifyError.validation)) {
    const part = fastifyError.validationContext ?? 'body';
    const errors = toRequestViolations(fastifyError.validation, part);
    return {
      ...kit('SVC_ERR_REQUEST_VALIDATION'),
      detail:
        `The ${part} has ${errors.length} problem${errors.length === 1 ? '' : 's'}: ` +
        errors.map((e) => `${e.pointer || '(root)'} ${e.message}`).join('; '),
      extensions: { errors },
    };
  }
  const status = fastifyError.statusCode;
  if (
    typeof fastifyError.code === 'string' &&
    fastifyError.code.startsWith('FST_') &&
    typeof status === 'number' &&
    status >= 400 &&
    status < 500
  ) {
    const mapped = FASTIFY_CODES[fastifyError.code];
    if (mapped === 'SVC_ERR_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit;
      return { ...kit(mapped), detail: `The body exceeds this route's limit of ${limit} bytes`, extensions: { limit } };
    }
    if (mapped === 'SVC_ERR_MEDIA_TYPE_UNSUPPORTED') {
      // The header is not echoed: an error reply repeats nothing the client sent.
      return { ...kit(mapped), detail: "This route does not accept a body of the request's Content-Type" };
    }
    if (mapped) return { ...kit(mapped), detail: fastifyError.message };
    return {
      status,
      code: 'SVC_ERR_BAD_REQUEST',
      title: kitProblems.definitions.SVC_ERR_BAD_REQUEST.title,
      detail: fastifyError.message,
    };
  }
  const exposed = exposedClientStatus(error);
  if (exposed === 403 || exposed === 404) {
    // A refused path (traversal, a directory) looks like any missing one.
    return { ...kit('SVC_ERR_ROUTE_NOT_FOUND'), detail: `No route answers ${request.method} ${pathOf(request)}` };
  }
  if (exposed !== undefined) {
    return {
      status: exposed,
      code: 'SVC_ERR_BAD_REQUEST',
      title: kitProblems.definitions.SVC_ERR_BAD_REQUEST.title,
      detail: 'The request cannot be answered as sent',
    };
  }
  return {
    ...kit('SVC_ERR_INTERNAL'),
    detail: 'An unexpected error occurred; quote the request id when reporting it.',
  };
}

/**
 * The 4xx status of an `http-errors` client error (`expose: true`, as @fastify/send raises for a
 * bad or forbidden path), else undefined.
 */
function exposedClientStatus(error: Error): number | undefined {
  if (!('expose' in error) || error.expose !== true) return undefined;
  const status =
    'statusCode' in error && typeof error.statusCode === 'number'
      ? error.statusCode
      : 'status' in error
        ? error.status
        : undefined;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined;
}

/** True when no reply can reach the client any more (mirrors Fastify's own check for async handlers). */
function clientGone(request: FastifyRequest, reply: FastifyReply): boolean {
  // Node's types say it is always there; Fastify's own check allows for none, and so does this one.
  const socket: { readonly destroyed?: boolean } | null | undefined = request.raw.socket;
  return reply.sent || reply.raw.headersSent || request.raw.aborted || !socket || socket.destroyed === true;
}

/** The error's string `code` (`ECONNRESET`), else its name, for the log line. */
function reasonOf(error: Error): string {
  return errorCode(error) ?? error.name;
}

function kit(code: KitProblemCode): ProblemReplyInit {
  const def = kitProblems.definitions[code];
  return { status: def.status, code, title: def.title };
}

/** Sends a problem document with the right media type; also used by routes that answer problems themselves. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ProblemReplyInit): FastifyReply {
  const document = buildProblemDocument({ ...problem, instance: pathOf(request), requestId: String(request.id) });
  // Sent as text so no route response schema re-shapes it.
  return reply.status(problem.status).type(PROBLEM_MEDIA_TYPE).send(JSON.stringify(document));
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
