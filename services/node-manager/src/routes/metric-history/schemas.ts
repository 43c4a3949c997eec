/** Route schemas of `/api/metrics/*`, the metric history (also the OpenAPI description). */
import { errorResponses, nodeParams } from '../shared-schemas.js';

const tags = ['metrics'];
const timeMs = { type: 'integer', minimum: 0, maximum: 8_640_000_000_000_000 } as const;

/** Query of `GET /api/metrics/node/{node_id}`. */
export const historyQuery = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'A series name from GET /api/metrics/names, e.g. erlang_vm_memory_bytes_total{kind="system"}',
    },
    from: { ...timeMs, description: 'Start of the range, ms since the epoch (inclusive); default `to` minus 1 h' },
    to: { ...timeMs, description: 'End of the range, ms since the epoch (inclusive); default now' },
  },
} as const;

export const readHistorySchema = {
  tags,
  operationId: 'readMetricHistory',
  summary: "A node's samples of one metric over a time range",
  description:
    'Raw samples when the range starts within the raw retention (default 24 h), else per-minute averages ' +
    '(time = start of the minute) within the minute retention (default 30 days). Triad addition.',
  params: nodeParams,
  querystring: historyQuery,
  response: {
    200: {
      description: 'The points, oldest first',
      type: 'object',
      required: ['node_id', 'name', 'points'],
      properties: {
        node_id: { type: 'string' },
        name: { type: 'string' },
        points: {
          type: 'array',
          description: '[timeMs, value] pairs',
          items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
        },
      },
    },
    ...errorResponses(404),
  },
} as const;

export const listNamesSchema = {
  tags,
  operationId: 'listMetricNames',
  summary: 'Names of the metrics with history',
  description: 'Every series name sampled so far on any node, sorted. Triad addition.',
  response: {
    200: {
      description: 'The names',
      type: 'object',
      required: ['names'],
      properties: { names: { type: 'array', items: { type: 'string' } } },
    },
    ...errorResponses(),
  },
} as const;
