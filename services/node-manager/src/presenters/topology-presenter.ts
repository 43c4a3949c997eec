import type { FamilyRecord, NodeRecord } from '../repositories/topology-repository.js';

/** What the API shows instead of a node's cookie: cookies are secrets and never leave the service. */
export const HIDDEN_COOKIE = 'hidden';

/** A node exactly as the spec lists its fields. */
export function presentNode(node: NodeRecord) {
  return {
    id: node.id,
    name: node.name,
    node_family_id: node.familyId,
    host: node.host,
    cookie: HIDDEN_COOKIE,
    domain_id: node.domainId,
    state: node.state,
    tref: node.tref,
    deleted: node.deleted,
    plugins_opts: node.pluginsOpts,
  };
}

/**
 * A family as listed: `bootstrap_strategy` is the three-element array WombatOAM shows
 * (`["wo_bootstrap_strategy", strategy, opts]`).
 */
export function presentFamily(family: FamilyRecord) {
  return {
    id: family.id,
    name: family.name,
    description: family.description,
    node_selection: family.nodeSelection,
    bootstrap_strategy: ['wo_bootstrap_strategy', family.bootstrapStrategy, family.bootstrapStrategyOpts],
    bootstrap_strategy_opts: family.bootstrapStrategyOpts,
    neighbors: family.neighbors,
    nodes: family.nodes,
    plugins_opts: family.pluginsOpts,
    deleted: family.deleted,
  };
}

/** A family in the reply of its creation: `bootstrap_strategy` is the submitted value. */
export function presentCreatedFamily(family: FamilyRecord) {
  return { ...presentFamily(family), bootstrap_strategy: family.bootstrapStrategy };
}

/** A node as the API shows it. */
export type NodeReply = ReturnType<typeof presentNode>;
/** A listed family as the API shows it. */
export type FamilyReply = ReturnType<typeof presentFamily>;
/** A family in the reply of its creation. */
export type CreatedFamilyReply = ReturnType<typeof presentCreatedFamily>;
