/** Route schemas of `/api/plugins/*` (also the OpenAPI description). */
import { pluginSchema } from '../../presenters/plugin-presenter.js';
import { BODY_ERRORS, errorResponses, idSchema, nodeParams } from '../shared-schemas.js';

const tags = ['plugins'];

const pluginParams = {
  type: 'object',
  required: ['node_id', 'plugin_id'],
  properties: { node_id: idSchema, plugin_id: { type: 'string', maxLength: 255 } },
} as const;

const stateBody = {
  type: 'object',
  required: ['plugin_state'],
  additionalProperties: false,
  properties: { plugin_state: { type: 'string', enum: ['on', 'off'] } },
} as const;
const pluginList = {
  description: 'Every plugin of the node',
  type: 'object',
  required: ['plugins'],
  properties: { plugins: { type: 'array', items: pluginSchema } },
} as const;

export const listPluginsSchema = {
  tags,
  operationId: 'listPlugins',
  summary: 'Plugins of a node',
  params: nodeParams,
  response: { 200: pluginList, ...errorResponses(404) },
} as const;
export const setAllPluginsSchema = {
  tags,
  operationId: 'setAllPluginStates',
  summary: 'Switches every plugin of a node',
  params: nodeParams,
  body: stateBody,
  response: { 200: pluginList, ...errorResponses(404, ...BODY_ERRORS) },
} as const;
export const setPluginSchema = {
  tags,
  operationId: 'setPluginState',
  summary: 'Switches one plugin',
  params: pluginParams,
  body: stateBody,
  response: { 200: { ...pluginSchema, description: 'The plugin' }, ...errorResponses(404, ...BODY_ERRORS) },
} as const;
