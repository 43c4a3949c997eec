import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface PrometheusMetricsOptions {
  /** Path of the scrape endpoint; default `/metrics`; `false` registers no route (see `exportTo`). */
  readonly path?: string | false;
  /**
   * Receives a function rendering these metrics (process and HTTP) as Prometheus text, for an app
   * that serves them itself, e.g. behind its own authentication and next to metrics of its own.
   */
  readonly exportTo?: (render: () => Promise<string>) => void;
  /** Prefix of the metric names; default none (`http_requests_total`). */
  readonly prefix?: string;
  /** Upper bounds of the request duration buckets, in seconds. */
  readonly durationBuckets?: readonly number[];
}

/** Default request duration buckets: 5 ms to 10 s. */
export const DEFAULT_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]);

// Process metrics describe the process, not an app: one registry per process (collecting them
// per app would start a new set of observers for every app a test suite builds).
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * `GET /metrics` in the Prometheus text format (0.0.4): prom-client's default process metrics plus,
 * for this app, `http_requests_total` and `http_request_duration_seconds` labelled by `method`,
 * `route` (the route's URL pattern, e.g. `/api/articles/:articleId`; `unmatched` for 404s of no
 * route, so unknown URLs cannot grow the label set) and `status_code`. Register it at the root,
 * before the routes it should count. Public: it carries no request data.
 */
export const prometheusMetrics = fp(
  function prometheusMetricsPlugin(
    app: FastifyInstance,
    options: PrometheusMetricsOptions,
    done: (err?: Error) => void,
  ) {
    const prefix = options.prefix ?? '';
    const registry = new Registry();
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: `${prefix}http_requests_total`,
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames,
      registers: [registry],
    });
    const durations = new Histogram({
      name: `${prefix}http_request_duration_seconds`,
      help: 'Time from request to response, by method, route pattern and status code',
      labelNames,
      buckets: [...(options.durationBuckets ?? DEFAULT_DURATION_BUCKETS)],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, hookDone) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      };
      requests.inc(labels);
      durations.observe(labels, reply.elapsedTime / 1000);
      hookDone();
    });
    const render = async () => (await processMetrics().metrics()) + (await registry.metrics());
    options.exportTo?.(render);
    if (options.path === false) {
      done();
      return;
    }
    app.get(
      options.path ?? '/metrics',
      {
        logLevel: 'warn',
        schema: {
          tags: ['health'],
          operationId: 'getMetrics',
          summary: 'Prometheus metrics',
          description:
            'Process metrics and HTTP request counts and durations by route and status, in the Prometheus ' +
            'text exposition format 0.0.4.',
          security: [],
          response: {
            200: {
              description: 'The metrics',
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
          },
        },
      },
      async (_request, reply) => reply.type(registry.contentType).send(await render()),
    );
    done();
  },
  { name: '@triad/service-kit/prometheus-metrics', fastify: '5.x' },
);
