import type { FastifyInstance } from 'fastify';
import { useApiErrorShape } from '../../http/api-error-handler.js';
import { useAuthentication } from '../../http/auth-hook.js';
import { useDocumentingResponseSchemas } from '../../http/documenting-response-schemas.js';
import { nodeUpText, PROMETHEUS_CONTENT_TYPE, prometheusText } from '../../monitoring/prometheus-text.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { metricsSchema } from './schemas.js';

/** Options of `metricsRoutes`. */
export interface MetricsRoutesOptions {
  readonly core: NodeManagerCore;
  /** The service's own process and HTTP metrics as Prometheus text (service-kit's `exportTo`). */
  readonly serviceMetrics: () => Promise<string>;
}

/**
 * `GET /metrics`: `triad_node_up` of every managed node, the last kernel sample of every UP node
 * (prometheus.erl's names, `node` label) and the service's own metrics, in the Prometheus text
 * format. It follows the service's authentication setting like `/api` (HTTP Basic of any user with
 * the read right when on; open when off), so scrapers use `basic_auth` in their scrape config.
 */
export function metricsRoutes(
  app: FastifyInstance,
  { core, serviceMetrics }: MetricsRoutesOptions,
  done: (error?: Error) => void,
): void {
  useDocumentingResponseSchemas(app);
  useApiErrorShape(app);
  useAuthentication(app, core.authenticator);
  app.get('', { schema: metricsSchema, config: { access: 'read' } }, async (_request, reply) => {
    const nodes = (await core.topologyStore.listNodes()).map((n) => ({ name: n.name, up: n.state === 'UP' }));
    const text = nodeUpText(nodes) + prometheusText(core.metrics) + (await serviceMetrics());
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(text);
  });
  done();
}
