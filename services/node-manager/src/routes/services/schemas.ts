/** Route schemas of WombatOAM's service routes for the explorers (also the OpenAPI description). */
import { MAX_PROCESS_LIMIT, MAX_ETS_LIMIT } from '../../model/explorer-records.js';
import { BODY_ERRORS, errorResponses, idSchema, nodeParams } from '../shared-schemas.js';

const tags = ['explorer'];
const EXPLORER_ERRORS = [404, 409, 429, 502, 503, 504] as const;

const option = {
  type: 'object',
  required: ['name', 'label', 'type', 'default', 'enabled', 'mandatory'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    label: { type: 'string' },
    type: { type: 'string', enum: ['enum', 'integer'] },
    default: { type: 'string' },
    enabled: { type: 'boolean' },
    mandatory: { type: 'boolean' },
    values: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const serviceInfoSchema = {
  tags,
  operationId: 'listExplorerServices',
  summary: "The explorer services of a node, in WombatOAM's service-info shape",
  description:
    'Process Manager and Table Visualizer, each with its serviceId for POST /api/request/service_request/. ' +
    'The same reads as /api/explorer/...',
  params: nodeParams,
  response: {
    200: {
      description: 'The services',
      type: 'object',
      required: ['service_infos'],
      additionalProperties: false,
      properties: {
        service_infos: {
          type: 'array',
          items: {
            type: 'object',
            required: ['serviceId', 'objectType', 'objectId', 'isInternal', 'label', 'description', 'options'],
            additionalProperties: false,
            properties: {
              serviceId: { type: 'string', description: 'Opaque; base64 of an Erlang term, as WombatOAM forms it' },
              objectType: { type: 'string', enum: ['node'] },
              objectId: { type: 'string' },
              isInternal: { type: 'boolean' },
              label: { type: 'string' },
              description: { type: 'string' },
              options: { type: 'array', items: option },
            },
          },
        },
      },
    },
    ...errorResponses(404),
  },
} as const;

const serviceRequestBody = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 512 },
    arguments: {
      type: 'object',
      maxProperties: 20,
      additionalProperties: { type: ['string', 'number'], maxLength: 100 },
      description:
        `Process Manager: OrderBy (Memory, Reductions, Message Queue Length), Limit (1 to ${MAX_PROCESS_LIMIT}); ` +
        `Table Visualizer: Limit (1 to ${MAX_ETS_LIMIT}). Interval, OrderDirection, Page, FilterText are accepted ` +
        'and not used',
    },
  },
} as const;

export const serviceRequestSchema = {
  tags,
  operationId: 'startExplorerServiceRequest',
  summary: 'Runs an explorer service once (WombatOAM: POST /api/request/service_request/)',
  description:
    'The read runs before the reply; its result is kept 60 s at GET /api/request/{request_id}. Results are not ' +
    'streamed over the WebSocket.',
  body: serviceRequestBody,
  response: {
    200: {
      description: 'The request, answered',
      type: 'object',
      required: ['requestId'],
      additionalProperties: false,
      properties: { requestId: { type: 'string' } },
    },
    ...errorResponses(...BODY_ERRORS, ...EXPLORER_ERRORS),
  },
} as const;

export const readRequestSchema = {
  tags,
  operationId: 'readExplorerServiceRequest',
  summary: 'The result of a service request of the last 60 s (Triad)',
  params: {
    type: 'object',
    required: ['request_id'],
    properties: { request_id: idSchema },
  },
  response: {
    200: {
      description: 'The request and the reply of the explorer route it ran',
      type: 'object',
      required: ['requestId', 'serviceId', 'nodeId', 'label', 'finishedAt', 'result'],
      additionalProperties: false,
      properties: {
        requestId: { type: 'string' },
        serviceId: { type: 'string' },
        nodeId: { type: 'string' },
        label: { type: 'string' },
        finishedAt: { type: 'integer', description: 'ms since the epoch' },
        result: {
          type: 'object',
          additionalProperties: true,
          description: 'As GET /api/explorer/node/{node_id}/processes or /ets answers',
        },
      },
    },
    ...errorResponses(404),
  },
} as const;
