import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface HealthOptions {
  /** Extra readiness check (e.g. a database ping); throwing makes `/healthz` answer 503. */
  readonly check?: () => Promise<void>;
}

/** States `/healthz` reports. */
export type HealthStatus = 'starting' | 'ok' | 'unavailable' | 'shutting-down';

const healthReply = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['starting', 'ok', 'unavailable', 'shutting-down'] } },
  additionalProperties: false,
} as const;

/**
 * `GET /healthz`: 200 `{status:'ok'}` once the app is ready (after `onReady`) and the optional
 * check passes; 503 with `starting`, `unavailable` or `shutting-down` otherwise. Shutdown starts
 * with Fastify's `preClose`.
 */
export const healthRoute = fp(
  function healthPlugin(app: FastifyInstance, options: HealthOptions, done: (error?: Error) => void) {
    let state: 'starting' | 'ready' | 'closing' = 'starting';
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
            200: { ...healthReply, description: 'Ready' },
            503: { ...healthReply, description: 'Starting, shutting down or a dependency is unavailable' },
          },
        },
      },
      async (request, reply) => {
        if (state === 'starting') return reply.status(503).send({ status: 'starting' });
        if (state === 'closing') return reply.status(503).send({ status: 'shutting-down' });
        if (options.check) {
          try {
            await options.check();
          } catch (error) {
            request.log.warn({ err: error }, 'health check failed');
            return reply.status(503).send({ status: 'unavailable' });
          }
        }
        return reply.status(200).send({ status: 'ok' });
      },
    );
    done();
  },
  { name: '@triad/service-kit/health', fastify: '5.x' },
);
