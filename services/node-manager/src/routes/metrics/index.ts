import type { FastifyInstance } from 'fastify';
import { useApiErrorShape } from '../../http/api-error-handler.js';
import { useAuthentication } from '../../http/auth-hook.js';
import { useDocumentingResponseSchemas } from '../../http/documenting-response-schemas.js';
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from '../../monitoring/prometheus-text.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { metricsSchema } from './schemas.js';

/**
 * `GET /metrics`: the last samples of every monitored node in the Prometheus text format. It
 * follows the service's authentication setting like `/api` (HTTP Basic of any user with the read
 * right when on; open when off), so scrapers use `basic_auth` in their scrape config.
 */
export function metricsRoutes(
  app: FastifyInstance,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  useDocumentingResponseSchemas(app);
  useApiErrorShape(app);
  useAuthentication(app, core.authenticator);
  app.get('', { schema: metricsSchema, config: { access: 'read' } }, async (_request, reply) => {
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(prometheusText(core.metrics));
  });
  done();
}
