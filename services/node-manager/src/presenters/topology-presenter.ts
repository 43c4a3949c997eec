import type { NodeFacts, RunningApplication } from '../model/node-facts.js';
import type { FamilyRecord } from '../model/family-record.js';
import type { NodeRecord } from '../model/node-record.js';

/** What the API shows instead of a node's cookie: cookies are secrets and never leave the service. */
export const HIDDEN_COOKIE = 'hidden';

/**
 * A node with the spec's fields, then Triad's facts of it (`otp_release`, `erts_version`,
 * `uptime_ms` at `now`, `process_count`, `total_memory` in bytes): null unless the node is UP and
 * has been read (`facts`).
 */
export function presentNode(node: NodeRecord, facts?: NodeFacts, now: number = Date.now()) {
  const known = node.state === 'UP' ? facts : undefined;
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
    otp_release: known?.otpRelease ?? null,
    erts_version: known?.ertsVersion ?? null,
    uptime_ms: known ? known.uptimeMs + Math.max(0, now - known.readAt) : null,
    process_count: known?.processCount ?? null,
    total_memory: known?.totalMemory ?? null,
  };
}

/** An application a node runs, as `/api/topo/node/{node_id}/info` lists it. */
export function presentApplication(app: RunningApplication) {
  return { name: app.name, description: app.description, version: app.version };
}

/** `/api/topo/node/{node_id}/info`: the node object and the applications it runs (empty unless UP and read). */
export function presentNodeInfo(node: NodeRecord, facts?: NodeFacts, now: number = Date.now()) {
  const known = node.state === 'UP' ? facts : undefined;
  return { node: presentNode(node, facts, now), applications: (known?.applications ?? []).map(presentApplication) };
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
