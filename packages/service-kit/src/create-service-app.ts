import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { serveConsole, type ConsoleOptions } from './console/serve-console.js';
import { healthRoute, type HealthOptions } from './health.js';
import { DEFAULT_MAX_JSON_DEPTH, useJsonBodyParser } from './json-body-parser.js';
import { answerClientError, answerFrameworkError } from './http/framework-errors.js';
import { problemHandler } from './http/problem-handler.js';
import { generateRequestId, requestIdEcho } from './request-id.js';
import { lazyChildLoggerFactory } from './lazy-child-logger.js';
import { registerOpenApi, type OpenApiOptions } from './openapi/register-openapi.js';
import { prometheusMetrics, type PrometheusMetricsOptions } from './prometheus-metrics.js';
import { securityHeaders } from './security-headers.js';
import { guardConnections } from './connections/connection-guard.js';
import {
  connectionLimits,
  connectionsCheckingInterval,
  type ConnectionLimits,
} from './connections/connection-limits.js';

/** Default largest request body for ordinary routes: 1 MiB. Routes may raise it with `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024; // 1 MiB

export interface ServiceAppOptions {
  /** pino logger from `createLogger`; omitted: nothing is logged. */
  readonly logger?: Logger;
  /** Largest request body in bytes for routes that do not set their own; default 1 MiB. */
  readonly bodyLimit?: number;
  /** Most nesting levels of a JSON body; default 64. */
  readonly maxJsonDepth?: number;
  /** Longest path parameter in characters (after URL encoding); default 500. */
  readonly maxParamLength?: number;
  /**
   * Whether `/a/b/` finds the route `/a/b` (default false): for a service whose existing clients
   * write paths with a trailing slash (WombatOAM's `POST /api/request/service_request/`).
   */
  readonly ignoreTrailingSlash?: boolean;
  readonly health?: HealthOptions;
  /**
   * Timeouts and the per-client connection limit (`ConnectionLimits`); a service passes its config
   * (every `ServiceSettings` has them). Members left out keep `DEFAULT_CONNECTION_LIMITS`.
   */
  readonly connections?: Partial<ConnectionLimits>;
  /** Documents the app: `/openapi.json` and `/docs` (see `registerOpenApi`); omitted: no documentation. */
  readonly openApi?: OpenApiOptions;
  /** Serves the web console at `/` (see `serveConsole`); omitted: `/` is an unknown route. */
  readonly console?: ConsoleOptions;
  /** Serves Prometheus metrics (see `prometheusMetrics`); omitted: none. */
  readonly metrics?: PrometheusMetricsOptions;
  /**
   * Runs after the core plugins and before `/healthz` is added: register documentation plugins
   * (OpenAPI) here so they see every route.
   */
  readonly beforeRoutes?: (app: FastifyInstance) => Promise<void>;
}

/**
 * Builds a Fastify instance with the plumbing every Triad service shares: sane request ids
 * (`x-request-id` in and out, in every log line as `reqId`), security headers on every reply
 * (`securityHeaders`: nosniff, no framing, no referrer, a CSP), problem+json errors and 404s (also
 * for what Fastify and Node's HTTP parser refuse before routing: 414, 431, 400, 408), the
 * JSON parser with depth and `__proto__` checks, the body limit, route schemas validated with all
 * errors reported and no properties silently dropped, and `GET /healthz`; with `openApi`,
 * `/openapi.json` and `/docs`; with `console`, the web console at `/` (not in the OpenAPI
 * document); with `metrics`, `GET /metrics`. Order: core plugins, console, OpenAPI,
 * metrics, `beforeRoutes`, `/healthz`. Its server has the `connections` timeouts and the
 * per-client connection limit (`guardConnections`). Never listens.
 *
 * @throws RangeError when the headers timeout is longer than a non-zero request timeout.
 */
export async function createServiceApp(options: ServiceAppOptions = {}): Promise<FastifyInstance> {
  const limits = connectionLimits(options.connections);
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new RangeError(
      `The headers timeout (${limits.headersTimeoutMs} ms, TRIAD_HEADERS_TIMEOUT_MS) is longer than the request ` +
        `timeout (${limits.requestTimeoutMs} ms, TRIAD_REQUEST_TIMEOUT_MS); make it shorter or equal`,
    );
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger, childLoggerFactory: lazyChildLoggerFactory }
      : { logger: false }),
    genReqId: generateRequestId,
    requestIdHeader: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Node's own timeouts: headers, the whole request (408 through `answerClientError`), idle keep-alive.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingInterval(limits),
    },
    routerOptions: {
      maxParamLength: options.maxParamLength ?? 500,
      ignoreTrailingSlash: options.ignoreTrailingSlash ?? false,
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
  }) as unknown as FastifyInstance;
  guardConnections(app.server, limits, app.log);
  useJsonBodyParser(app, { maxDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH });
  await app.register(requestIdEcho);
  await app.register(securityHeaders);
  let navigation: ((request: FastifyRequest, reply: FastifyReply) => boolean) | undefined;
  await app.register(problemHandler, { navigation: (request, reply) => navigation?.(request, reply) ?? false });
  // Before OpenAPI, which (like the route recorder) only sees routes registered after it.
  if (options.console) navigation = await serveConsole(app, options.console);
  if (options.openApi) await registerOpenApi(app, options.openApi);
  if (options.metrics) await app.register(prometheusMetrics, options.metrics);
  if (options.beforeRoutes) await options.beforeRoutes(app);
  await app.register(healthRoute, options.health ?? {});
  return app;
}
