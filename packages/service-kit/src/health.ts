import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface HealthOptions {
  /** Extra readiness check (e.g. a database ping); throwing makes `/healthz` answer 503. */
  readonly check?: () => Promise<void>;
  /**
   * Extra fields of every `/healthz` reply (e.g. which instance answers), with their JSON schemas;
   * `values` is called per request and must not throw. Default none: the reply is `{status}` only.
   */
  readonly fields?: {
    readonly schema: Readonly<Record<string, object>>;
    readonly values: () => Readonly<Record<string, unknown>>;
  };
}

/** States `/healthz` reports. */
export type HealthStatus = 'starting' | 'ok' | 'unavailable' | 'shutting-down';

function healthReply(fields: HealthOptions['fields']) {
  return {
    type: 'object',
    required: ['status', ...Object.keys(fields?.schema ?? {})],
    properties: {
      status: { type: 'string', enum: ['starting', 'ok', 'unavailable', 'shutting-down'] },
      ...fields?.schema,
    },
    additionalProperties: false,
  } as const;
}

/**
 * `GET /healthz`: 200 `{status:'ok'}` once the app is ready (after `onReady`) and the optional
 * check passes; 503 with `starting`, `unavailable` or `shutting-down` otherwise; every reply also
 * carries `fields`. Shutdown starts with Fastify's `preClose`.
 */
export const healthRoute = fp(
  function healthPlugin(app: FastifyInstance, options: HealthOptions, done: (error?: Error) => void) {
    let state: 'starting' | 'ready' | 'closing' = 'starting';
    const replySchema = healthReply(options.fields);
    const body = (status: HealthStatus) => ({ status, ...options.fields?.values() });
    app.addHook('onReady', (hookDone) => {
      state = 'ready';
      hookDone();
    });
    app.addHook('preClose', (hookDone) => {
      state = 'closing';
      hookDone();
    });
    app.get(
      '/healthz',
      {
        logLevel: 'warn',
        schema: {
          tags: ['health'],
          operationId: 'getHealth',
          summary: 'Readiness probe',
          description: '200 once the service is ready; 503 while starting, shutting down or when a dependency fails.',
          security: [],
          response: {
            200: { ...replySchema, description: 'Ready' },
            503: { ...replySchema, description: 'Starting, shutting down or a dependency is unavailable' },
          },
        },
      },
      async (request, reply) => {
        if (state === 'starting') return reply.status(503).send(body('starting'));
        if (state === 'closing') return reply.status(503).send(body('shutting-down'));
        if (options.check) {
          try {
            await options.check();
          } catch (error) {
            request.log.warn({ err: error }, 'health check failed');
            return reply.status(503).send(body('unavailable'));
          }
        }
        return reply.status(200).send(body('ok'));
      },
    );
    done();
  },
  { name: '@triad/service-kit/health', fastify: '5.x' },
);
