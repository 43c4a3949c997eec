/** Route schemas of the node family's cluster discovery switch (a Triad addition). */
import { BODY_ERRORS, errorResponses, familyParams } from '../shared-schemas.js';

const tags = ['topology'];

const discovery = {
  description: 'Whether nodes that join the cluster of a node of this family later are added',
  type: 'object',
  required: ['discover_cluster'],
  additionalProperties: false,
  properties: { discover_cluster: { type: 'boolean' } },
} as const;

export const getClusterDiscoverySchema = {
  tags,
  operationId: 'getClusterDiscovery',
  summary: "A node family's cluster discovery switch (Triad)",
  params: familyParams,
  response: { 200: discovery, ...errorResponses(404) },
} as const;

export const setClusterDiscoverySchema = {
  tags,
  operationId: 'setClusterDiscovery',
  summary: "Switches a node family's cluster discovery (Triad)",
  params: familyParams,
  body: discovery,
  response: { 200: discovery, ...errorResponses(404, ...BODY_ERRORS) },
} as const;
