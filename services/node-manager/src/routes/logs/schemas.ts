/** Route schemas of `/api/logs/*` (a Triad addition; also the OpenAPI description). */
import { LOG_LEVELS } from '../../model/log-level.js';
import { errorResponses, nodeParams } from '../shared-schemas.js';

const tags = ['logs'];

/** Largest `limit` of a log list. */
export const MAX_LOG_LIMIT = 1_000;
/** `limit` when none is given. */
export const DEFAULT_LOG_LIMIT = 100;

const logEntry = {
  type: 'object',
  required: ['time', 'level', 'kind', 'text'],
  additionalProperties: false,
  properties: {
    time: { type: 'integer', description: "The node's event time, ms since the epoch" },
    level: { type: 'string', enum: [...LOG_LEVELS] },
    kind: {
      type: 'string',
      description:
        'crash_report, supervisor_report, progress_report, logger_event (warning or more severe), ' +
        'code_loaded, code_purged',
    },
    text: { type: 'string', description: 'The event formatted on one line (at most 4,000 characters)' },
  },
} as const;

export const listNodeLogsSchema = {
  tags,
  operationId: 'listNodeLogs',
  summary: 'Log entries collected from a node, newest first',
  params: nodeParams,
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: MAX_LOG_LIMIT, default: DEFAULT_LOG_LIMIT },
      level: { type: 'string', enum: [...LOG_LEVELS], description: 'Only entries of this level or more severe' },
    },
  },
  response: {
    200: {
      description: 'The newest entries',
      type: 'object',
      required: ['logs'],
      properties: { logs: { type: 'array', items: logEntry } },
    },
    ...errorResponses(404),
  },
} as const;
