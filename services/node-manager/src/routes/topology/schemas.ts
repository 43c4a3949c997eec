/** Route schemas of `/api/topo/*`. */
const nodeName = { type: 'string', minLength: 1, maxLength: 255 } as const;
const cookie = { type: 'string', minLength: 1, maxLength: 255 } as const;
const id = { type: 'string', minLength: 1, maxLength: 64 } as const;

export const nodeParams = { type: 'object', required: ['node_id'], properties: { node_id: id } } as const;
export const familyParams = {
  type: 'object',
  required: ['node_family_id'],
  properties: { node_family_id: id },
} as const;
export const familyUpdateParams = { type: 'object', required: ['family_id'], properties: { family_id: id } } as const;

/** `family` (optional, our extension): id of a live family to place the node(s) in instead of the family of the release. */
export const addNodeBody = {
  type: 'object',
  required: ['name', 'cookie'],
  additionalProperties: false,
  properties: { name: nodeName, cookie, family: id },
} as const;

export const createFamilyBody = {
  type: 'object',
  required: ['name', 'bootstrap_node_selection', 'bootstrap_strategy', 'bootstrap_strategy_opts'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    bootstrap_node_selection: { type: 'string', maxLength: 32 },
    bootstrap_strategy: { type: 'string', minLength: 1, maxLength: 255 },
    bootstrap_strategy_opts: { type: 'array', maxItems: 100 },
  },
} as const;

export const moveNodeBody = {
  type: 'object',
  required: ['node', 'family'],
  additionalProperties: false,
  properties: { node: id, family: id },
} as const;

export const renameFamilyBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

export const reachabilityBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', maxLength: 600 } },
} as const;
