/** Route schemas of `/api/explorer/*` (a Triad addition; also the OpenAPI description). */
import {
  DEFAULT_ETS_LIMIT,
  DEFAULT_PROCESS_LIMIT,
  MAX_ETS_LIMIT,
  MAX_PROCESS_LIMIT,
  MAX_PROCESS_RELATIONS,
  PROCESS_SORT_KEYS,
} from '../../model/explorer-records.js';
import { errorResponses, idSchema, nodeParams } from '../shared-schemas.js';

const tags = ['explorer'];

/** What every explorer route may answer besides 200: the node's own failures and the bounds. */
const EXPLORER_ERRORS = [404, 409, 429, 502, 503, 504] as const;

const nullableText = { type: ['string', 'null'] } as const;
const count = { type: 'integer', minimum: 0 } as const;

const summaryProperties = {
  pid: { type: 'string', description: 'As the node prints it: <0.N.S>' },
  registered_name: { ...nullableText, description: 'null for an unregistered process' },
  current_function: { ...nullableText, description: 'module:function/arity; null when the node cannot tell' },
  initial_call: {
    ...nullableText,
    description: "module:function/arity the process started in (proc_lib's start translated)",
  },
  memory: { ...count, description: 'Bytes (process_info memory)' },
  reductions: count,
  message_queue_len: count,
} as const;
const summaryRequired = [
  'pid',
  'registered_name',
  'current_function',
  'initial_call',
  'memory',
  'reductions',
  'message_queue_len',
] as const;

const countedList = {
  type: 'object',
  required: ['count', 'items'],
  additionalProperties: false,
  properties: {
    count,
    items: { type: 'array', items: { type: 'string' }, description: `The first ${MAX_PROCESS_RELATIONS}` },
  },
} as const;

export const topProcessesSchema = {
  tags,
  operationId: 'exploreTopProcesses',
  summary: "A node's top processes by memory, reductions or message queue length",
  description:
    'Sampled on demand with one call evaluated on the node; nothing is loaded there and nothing changes. ' +
    'Ties keep the order of the pids.',
  params: nodeParams,
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      sort: { type: 'string', enum: [...PROCESS_SORT_KEYS], default: 'memory' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_PROCESS_LIMIT, default: DEFAULT_PROCESS_LIMIT },
    },
  },
  response: {
    200: {
      description: 'The node’s process count and its first processes in the asked order, largest first',
      type: 'object',
      required: ['node_id', 'sort', 'process_count', 'processes'],
      additionalProperties: false,
      properties: {
        node_id: { type: 'string' },
        sort: { type: 'string', enum: [...PROCESS_SORT_KEYS] },
        process_count: count,
        processes: {
          type: 'array',
          items: {
            type: 'object',
            required: summaryRequired,
            additionalProperties: false,
            properties: summaryProperties,
          },
        },
      },
    },
    ...errorResponses(...EXPLORER_ERRORS),
  },
} as const;

export const processDetailsSchema = {
  tags,
  operationId: 'exploreProcess',
  summary: 'One process of a node in detail',
  description:
    'pid is <0.N.S> as the node prints it (URL-encoded: %3C0.123.0%3E); anything else is 400 bad_pid. ' +
    'A process that is gone is 404 process_not_found.',
  params: {
    type: 'object',
    required: ['node_id', 'pid'],
    properties: { node_id: idSchema, pid: { type: 'string', maxLength: 32 } },
  },
  response: {
    200: {
      description: 'The process',
      type: 'object',
      required: [
        ...summaryRequired,
        'node_id',
        'status',
        'links',
        'monitors',
        'monitored_by',
        'trap_exit',
        'priority',
        'group_leader',
        'heap_size',
        'total_heap_size',
        'stack_size',
        'current_stacktrace',
      ],
      additionalProperties: false,
      properties: {
        node_id: { type: 'string' },
        ...summaryProperties,
        status: { type: 'string', description: 'running, runnable, waiting, exiting, garbage_collecting, suspended' },
        links: countedList,
        monitors: { ...countedList, description: 'What the process monitors (pids, {Name,Node}, ports)' },
        monitored_by: countedList,
        trap_exit: { type: 'boolean' },
        priority: { type: 'string' },
        group_leader: { type: 'string' },
        heap_size: { ...count, description: 'Words' },
        total_heap_size: { ...count, description: 'Words' },
        stack_size: { ...count, description: 'Words' },
        current_stacktrace: {
          type: 'array',
          items: { type: 'string' },
          description: 'module:function/arity (file:line), innermost first',
        },
      },
    },
    ...errorResponses(400, ...EXPLORER_ERRORS),
  },
} as const;

export const etsTablesSchema = {
  tags,
  operationId: 'exploreEtsTables',
  summary: "A node's ETS tables, largest by memory first",
  params: nodeParams,
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: MAX_ETS_LIMIT, default: DEFAULT_ETS_LIMIT },
    },
  },
  response: {
    200: {
      description: 'The node’s table count and its largest tables',
      type: 'object',
      required: ['node_id', 'table_count', 'tables'],
      additionalProperties: false,
      properties: {
        node_id: { type: 'string' },
        table_count: count,
        tables: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'id', 'owner', 'owner_name', 'type', 'size', 'memory', 'protection'],
            additionalProperties: false,
            properties: {
              name: { type: 'string' },
              id: { type: 'string', description: 'The table identifier as the node prints it' },
              owner: { type: 'string', description: 'Pid of the owner, <0.N.S>' },
              owner_name: { ...nullableText, description: "The owner's registered name" },
              type: { type: 'string', description: 'set, ordered_set, bag, duplicate_bag' },
              size: { ...count, description: 'Objects' },
              memory: { ...count, description: 'Bytes' },
              protection: { type: 'string', description: 'public, protected, private' },
            },
          },
        },
      },
    },
    ...errorResponses(...EXPLORER_ERRORS),
  },
} as const;
