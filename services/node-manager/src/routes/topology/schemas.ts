/** Route schemas of `/api/topo/*` (also the OpenAPI description). */
import type { FromSchema } from 'json-schema-to-ts';
import { BODY_ERRORS, errorResponses, familyParams, idSchema, nodeParams } from '../shared-schemas.js';

const tags = ['topology'];
const nodeName = { type: 'string', minLength: 1, maxLength: 255 } as const;
const cookie = { type: 'string', minLength: 1, maxLength: 255 } as const;

/** `{family_id}` of the rename path (the spec names it so there). */
const familyUpdateParams = { type: 'object', required: ['family_id'], properties: { family_id: idSchema } } as const;

const nodeSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'node_family_id',
    'host',
    'cookie',
    'domain_id',
    'state',
    'tref',
    'deleted',
    'plugins_opts',
    'otp_release',
    'erts_version',
    'uptime_ms',
    'process_count',
    'total_memory',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string', description: 'name@host' },
    node_family_id: { type: 'string' },
    host: { type: 'string' },
    cookie: { type: 'string', description: 'Always "hidden": cookies never leave the service' },
    domain_id: { type: 'string' },
    state: { type: 'string', enum: ['UP', 'STOPPED', 'DOWN'] },
    tref: { type: 'string' },
    deleted: { type: 'boolean' },
    plugins_opts: { type: 'array', items: {} },
    // Triad's additions: facts of an UP node, null otherwise (docs/reference/node-management-api.md).
    otp_release: { type: ['string', 'null'], description: 'erlang:system_info(otp_release), e.g. "25"' },
    erts_version: { type: ['string', 'null'], description: 'erlang:system_info(version), e.g. "13.1.5"' },
    uptime_ms: { type: ['integer', 'null'], description: 'Milliseconds since the node started' },
    process_count: { type: ['integer', 'null'], description: 'Processes alive on the node' },
    total_memory: { type: ['integer', 'null'], description: 'erlang:memory(total), bytes' },
  },
} as const;
const familyProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'array', items: {} },
  node_selection: { type: 'string' },
  bootstrap_strategy_opts: { type: 'array', items: {} },
  neighbors: { type: 'array', items: {} },
  nodes: { type: 'array', items: { type: 'string' } },
  plugins_opts: { type: 'array', items: {} },
  deleted: { type: 'boolean' },
} as const;
/** Every member of a family reply: `presentFamily` always sends them all. */
const familyRequired = [
  'id',
  'name',
  'description',
  'node_selection',
  'bootstrap_strategy',
  'bootstrap_strategy_opts',
  'neighbors',
  'nodes',
  'plugins_opts',
  'deleted',
] as const;
const familySchema = {
  type: 'object',
  required: familyRequired,
  properties: {
    ...familyProperties,
    bootstrap_strategy: { type: 'array', items: {}, description: '["wo_bootstrap_strategy", strategy, opts]' },
  },
} as const;
const outcomeSchema = {
  type: 'object',
  description: '{success: true}, or {success: false, reason} (node_or_family_not_found, ...)',
  required: ['success'],
  properties: { success: { type: 'boolean' }, reason: { type: 'string' } },
} as const;
const noContent = { 204: { description: 'Done; no body', type: 'null' } } as const;

export const listNodesSchema = {
  tags,
  operationId: 'listNodes',
  summary: 'Every node',
  response: { 200: { description: 'Every live node', type: 'array', items: nodeSchema }, ...errorResponses() },
} as const;
export const readNodeSchema = {
  tags,
  operationId: 'readNode',
  summary: 'One node (deleted: true once removed)',
  params: nodeParams,
  response: { 200: { description: 'The node', ...nodeSchema }, ...errorResponses(404) },
} as const;
export const readNodeInfoSchema = {
  tags,
  operationId: 'readNodeInfo',
  summary: 'One node with the applications it runs (Triad addition)',
  params: nodeParams,
  response: {
    200: {
      description: 'The node object and its applications (empty unless the node is UP and has been read)',
      type: 'object',
      required: ['node', 'applications'],
      properties: {
        node: nodeSchema,
        applications: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'description', 'version'],
            properties: { name: { type: 'string' }, description: { type: 'string' }, version: { type: 'string' } },
          },
        },
      },
    },
    ...errorResponses(404),
  },
} as const;
export const deleteNodeSchema = {
  tags,
  operationId: 'deleteNode',
  summary: 'Removes a node',
  params: nodeParams,
  response: { ...noContent, ...errorResponses(404) },
} as const;
export const listFamiliesSchema = {
  tags,
  operationId: 'listNodeFamilies',
  summary: 'Every node family',
  response: { 200: { description: 'Every live family', type: 'array', items: familySchema }, ...errorResponses() },
} as const;
export const readFamilySchema = {
  tags,
  operationId: 'readNodeFamily',
  summary: 'One node family (deleted: true once removed)',
  params: familyParams,
  response: { 200: { description: 'The family', ...familySchema }, ...errorResponses(404) },
} as const;
export const listFamilyNodesSchema = {
  tags,
  operationId: 'listNodeFamilyNodes',
  summary: "A family's nodes, in the shape of GET /api/topo/node",
  description: 'The live nodes of the family in the order they were added; [] for a removed family.',
  params: familyParams,
  response: {
    200: { description: 'The live nodes of the family', type: 'array', items: nodeSchema },
    ...errorResponses(404),
  },
} as const;

export const createFamilySchema = {
  tags,
  operationId: 'createNodeFamily',
  summary: 'Creates a node family',
  body: {
    type: 'object',
    required: ['name', 'bootstrap_node_selection', 'bootstrap_strategy', 'bootstrap_strategy_opts'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 255 },
      bootstrap_node_selection: { type: 'string', maxLength: 32 },
      bootstrap_strategy: { type: 'string', minLength: 1, maxLength: 255 },
      bootstrap_strategy_opts: { type: 'array', maxItems: 100 },
    },
  },
  response: {
    200: {
      description: 'The family; bootstrap_strategy is the submitted value',
      type: 'object',
      required: familyRequired,
      properties: { ...familyProperties, bootstrap_strategy: { type: 'string' } },
    },
    ...errorResponses(...BODY_ERRORS),
  },
} as const;
export const forceDeleteFamilySchema = {
  tags,
  operationId: 'forceDeleteNodeFamily',
  summary: 'Deletes a family and its nodes',
  params: familyParams,
  response: { ...noContent, ...errorResponses(404) },
} as const;
export const renameFamilySchema = {
  tags,
  operationId: 'renameNodeFamily',
  summary: 'Renames a family',
  params: familyUpdateParams,
  body: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { type: 'string', minLength: 1, maxLength: 255 } },
  },
  response: { 200: outcomeSchema, ...errorResponses(...BODY_ERRORS) },
} as const;

/** `family` (optional, our extension): id of a live family to place the node(s) in instead of the release's. */
const addNodeBody = {
  type: 'object',
  required: ['name', 'cookie'],
  additionalProperties: false,
  properties: { name: nodeName, cookie, family: idSchema },
} as const;
/** The body of add-node and add-node-and-disc. */
export type AddNodeBody = FromSchema<typeof addNodeBody>;

export const addNodeSchema = {
  tags,
  operationId: 'addNode',
  summary: 'Adds a node by name@host and cookie, in the family of its release unless `family` names one',
  body: addNodeBody,
  response: {
    200: { description: 'The node (STOPPED or DOWN until it answers)', ...nodeSchema },
    ...errorResponses(404, ...BODY_ERRORS),
  },
} as const;
export const addNodeAndDiscoverSchema = {
  tags,
  operationId: 'addNodeAndDiscover',
  summary: 'Adds a node and the nodes connected to it',
  body: addNodeBody,
  response: {
    200: { description: 'The added and discovered nodes', type: 'array', items: nodeSchema },
    ...errorResponses(404, ...BODY_ERRORS),
  },
} as const;
export const moveNodeSchema = {
  tags,
  operationId: 'moveNode',
  summary: 'Moves a node into another family',
  body: {
    type: 'object',
    required: ['node', 'family'],
    additionalProperties: false,
    properties: { node: idSchema, family: idSchema },
  },
  response: { 200: outcomeSchema, ...errorResponses(...BODY_ERRORS) },
} as const;
export const reachabilitySchema = {
  tags,
  operationId: 'analyseReachability',
  summary: 'Checks whether a node name can be reached',
  description: "Needs the execute right: the service asks the host's EPMD, which lists the node names there.",
  body: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { type: 'string', maxLength: 600 } },
  },
  response: {
    200: {
      description: 'The checks performed and, when one failed, its reason and hints',
      type: 'object',
      properties: {
        reachability: { type: 'string', enum: ['should be reachable', 'is not reachable'] },
        details: { type: 'array', items: { type: 'object', additionalProperties: true } },
        description: { type: 'string' },
        hints: { type: 'array', items: { type: 'string' } },
      },
    },
    ...errorResponses(...BODY_ERRORS),
  },
} as const;

const count = { type: 'integer', minimum: 0 } as const;
export const nodeStatisticsSchema = {
  tags,
  operationId: 'nodeStatistics',
  summary: 'Cluster statistics; _this_hour counters count from the start of the hour',
  response: {
    200: {
      description: 'Counts over live nodes and families',
      type: 'object',
      required: [
        'number_of_nodes',
        'number_of_up_nodes',
        'number_of_families',
        'number_of_crashlogs_this_hour',
        'number_of_new_alarms_raised_this_hour',
        'number_of_active_alarms',
        'family_stats',
      ],
      properties: {
        number_of_nodes: count,
        number_of_up_nodes: count,
        number_of_families: count,
        number_of_crashlogs_this_hour: count,
        number_of_new_alarms_raised_this_hour: count,
        number_of_active_alarms: count,
        family_stats: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'number_of_nodes', 'number_of_up_nodes'],
            properties: { id: { type: 'string' }, number_of_nodes: count, number_of_up_nodes: count },
          },
        },
      },
    },
    ...errorResponses(),
  },
} as const;
