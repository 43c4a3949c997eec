import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { kitProblems, type KitProblemCode } from '../errors.js';
import { REQUEST_ID_HEADER } from '../request-id.js';
import { buildProblemDocument, PROBLEM_MEDIA_TYPE } from '../problem/problem-document.js';

/** What the kit answers for the errors Fastify raises before routing (its `frameworkErrors` codes). */
const ROUTING_PROBLEMS: Readonly<Record<string, { code: KitProblemCode; detail: string }>> = {
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'SVC_ERR_URI_TOO_LONG',
    detail: 'A path parameter is longer than this service accepts',
  },
  FST_ERR_BAD_URL: { code: 'SVC_ERR_BAD_REQUEST', detail: 'The request path is not a valid URL' },
};

/**
 * Fastify's `frameworkErrors`: a path parameter above `maxParamLength` is 414
 * `SVC_ERR_URI_TOO_LONG`, a path that does not decode is 400 `SVC_ERR_BAD_REQUEST`, as
 * problem+json. Neither echoes the path: the document has no `instance`, the detail names no
 * input. Runs before any hook, so it answers the same with or without credentials.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = ROUTING_PROBLEMS[error.code] ?? {
    code: 'SVC_ERR_BAD_REQUEST' as const,
    detail: 'The request is malformed',
  };
  const definition = kitProblems.definitions[known.code];
  request.log.info({ code: known.code, status: definition.status }, `request refused: ${definition.title}`);
  const document = buildProblemDocument({
    code: known.code,
    status: definition.status,
    title: definition.title,
    detail: known.detail,
    requestId: String(request.id),
  });
  void reply
    .status(definition.status)
    .header(REQUEST_ID_HEADER, request.id)
    .type(PROBLEM_MEDIA_TYPE)
    .send(JSON.stringify(document));
}

/** What Node's HTTP parser reports (`clientError`); only `code` is read. */
interface ClientError extends Error {
  readonly code?: string;
}

/** What `answerClientError` logs through; Fastify passes itself as `this`. */
interface HasLog {
  readonly log: { info(object: object, message: string): void };
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused before Fastify saw it is
 * answered with a problem+json document and the connection is closed. Headers (request line
 * included) above Node's limit are 431 `SVC_ERR_HEADERS_TOO_LARGE`, a request not sent in time
 * 408 `SVC_ERR_REQUEST_TIMEOUT`, anything else 400 `SVC_ERR_BAD_REQUEST`. The document carries a
 * fresh request id (also logged), no `instance` and nothing of the request.
 */
export function answerClientError(this: HasLog, error: ClientError, socket: Duplex): void {
  // A socket that cannot be written to gets no answer and no log line (a client that went away,
  // a connection refused for its client's connection count): nothing to tell, nothing to flood.
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const code: KitProblemCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'SVC_ERR_HEADERS_TOO_LARGE'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'SVC_ERR_REQUEST_TIMEOUT'
        : 'SVC_ERR_BAD_REQUEST';
  const { status, title } = kitProblems.definitions[code];
  const requestId = randomUUID();
  this.log.info({ code, status, reqId: requestId, parserError: error.code }, `request refused: ${title}`);
  const body = JSON.stringify(
    buildProblemDocument({ code, status, title, detail: CLIENT_ERROR_DETAILS[code], requestId }),
  );
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? title}\r\n` +
      `Content-Type: ${PROBLEM_MEDIA_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}

const CLIENT_ERROR_DETAILS: Readonly<Partial<Record<KitProblemCode, string>>> = {
  SVC_ERR_HEADERS_TOO_LARGE: 'The request line and headers together are larger than this service accepts',
  SVC_ERR_REQUEST_TIMEOUT: 'The request was not received in time',
  SVC_ERR_BAD_REQUEST: 'The request is not well-formed HTTP',
};
