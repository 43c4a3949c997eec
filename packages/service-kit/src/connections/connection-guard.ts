import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { kitProblems, type KitProblemCode } from '../errors.js';
import { buildProblemDocument, PROBLEM_MEDIA_TYPE } from '../problem/problem-document.js';
import { REQUEST_ID_HEADER } from '../request-id.js';
import type { ConnectionLimits } from './connection-limits.js';

/** What the guard logs through (a pino logger fits). */
export interface ConnectionGuardLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** Seconds a client refused for too many connections is told to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 5;
/** How long a refused connection may linger after its 503 before it is destroyed, ms. */
const REFUSED_LINGER_MS = 2_000;

/**
 * Guards a Node HTTP server against clients that hold connections open (issue 23): a request
 * whose body stops arriving for `bodyStallTimeoutMs` is answered 408 `SVC_ERR_REQUEST_TIMEOUT`
 * and its connection closed, and a client address holding `maxConnectionsPerClient` connections
 * gets 503 `SVC_ERR_TOO_MANY_CONNECTIONS` on the next one, which is closed. Header, whole-request
 * and keep-alive timeouts are Node's own (`createServiceApp` sets them). Upgraded connections
 * (WebSockets) and event streams count against the limit but never time out here: their requests
 * have no body.
 *
 * A body counts as stalled only when the client sends nothing: a route that reads slowly (its
 * buffer is full, so Node stopped reading the socket) never makes its client time out.
 */
export function guardConnections(server: Server, limits: ConnectionLimits, log: ConnectionGuardLog): void {
  if (limits.maxConnectionsPerClient > 0) limitConnectionsPerClient(server, limits.maxConnectionsPerClient, log);
  if (limits.bodyStallTimeoutMs > 0) {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (expectsBody(request)) watchBody(request, response, limits.bodyStallTimeoutMs, log);
    });
  }
}

function limitConnectionsPerClient(server: Server, limit: number, log: ConnectionGuardLog): void {
  const open = new Map<string, number>();
  const warned = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    const count = (open.get(address) ?? 0) + 1;
    if (count > limit) {
      // One line when an address goes over, none for each refused connection: a flood stays out of the log.
      if (!warned.has(address)) {
        warned.add(address);
        log.warn({ client: address, limit }, 'too many connections from one client address; refusing more');
      }
      refuse(socket, limit);
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      if (left < limit) warned.delete(address);
    });
  });
}

/** The remote address, IPv4-mapped IPv6 written as IPv4, so one client is one key. */
function clientAddress(socket: Socket): string {
  const address = socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

function refuse(socket: Socket, limit: number): void {
  const code: KitProblemCode = 'SVC_ERR_TOO_MANY_CONNECTIONS';
  const { status, title } = kitProblems.definitions[code];
  const detail =
    `This client address already holds ${limit} connections to this service; ` + 'close some (or reuse them) and retry';
  const head = problemHead(status, 'Service Unavailable', code, title, detail);
  socket.end(`${head.head}Retry-After: ${RETRY_AFTER_SECONDS}\r\n\r\n${head.body}`);
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}

/** True when the request announces a body (a length above 0, or chunked). */
function expectsBody(request: IncomingMessage): boolean {
  if (request.complete) return false;
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(request.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/**
 * Checks a quarter of `stallMs` apart whether the socket read anything: no new byte for
 * `stallMs` while the request is incomplete and its buffer is not full (the route is not the slow
 * side) answers 408 and closes the connection.
 */
function watchBody(request: IncomingMessage, response: ServerResponse, stallMs: number, log: ConnectionGuardLog) {
  const socket = request.socket;
  let seen = socket.bytesRead;
  let progressAt = Date.now();
  const timer = setInterval(
    () => {
      if (request.complete || socket.destroyed) {
        clearInterval(timer);
        return;
      }
      const read = socket.bytesRead;
      const waitingForRoute = request.readableLength >= request.readableHighWaterMark;
      if (read !== seen || waitingForRoute) {
        seen = read;
        progressAt = Date.now();
        return;
      }
      if (Date.now() - progressAt < stallMs) return;
      clearInterval(timer);
      answerStall(socket, response, stallMs, log);
    },
    Math.max(10, Math.floor(stallMs / 4)),
  );
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}

function answerStall(socket: Socket, response: ServerResponse, stallMs: number, log: ConnectionGuardLog): void {
  const code: KitProblemCode = 'SVC_ERR_REQUEST_TIMEOUT';
  const { status, title } = kitProblems.definitions[code];
  const requestId = randomUUID();
  log.info({ code, status, reqId: requestId, stallMs }, `request refused: ${title} (the body stalled)`);
  if (response.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(
    buildProblemDocument({
      code,
      status,
      title,
      detail: `The request body stopped arriving for ${stallMs} ms; send the body without pauses`,
      requestId,
    }),
  );
  response.shouldKeepAlive = false;
  response.writeHead(status, {
    'content-type': PROBLEM_MEDIA_TYPE,
    'content-length': Buffer.byteLength(body),
    [REQUEST_ID_HEADER]: requestId,
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(body, () => socket.destroy());
}

/** Status line and headers (without the blank line) of a problem written straight to a socket. */
function problemHead(status: number, reason: string, code: string, title: string, detail: string) {
  const requestId = randomUUID();
  const body = JSON.stringify(buildProblemDocument({ code, status, title, detail, requestId }));
  const head =
    `HTTP/1.1 ${status} ${reason}\r\n` +
    `Content-Type: ${PROBLEM_MEDIA_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Connection: close\r\n';
  return { head, body };
}
