/** Route schema of `GET /metrics` (also the OpenAPI description). */
import { errorResponses } from '../shared-schemas.js';

export const metricsSchema = {
  tags: ['metrics'],
  operationId: 'metrics',
  summary: 'Metrics of managed nodes and of the service (Prometheus text format)',
  response: {
    200: {
      description: 'Prometheus text format 0.0.4',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    ...errorResponses(),
  },
} as const;
