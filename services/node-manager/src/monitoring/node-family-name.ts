import type { TopologyRepository } from '../repositories/topology-repository.js';

/** The node family names by id, as the threshold collectors ask for them. */
export type NodeFamilyLookup = Pick<TopologyRepository, 'findNode' | 'findFamily'>;

/** The name of the family a node is in (what per-family thresholds are keyed by); undefined when gone. */
export async function nodeFamilyName(topology: NodeFamilyLookup, nodeId: string): Promise<string | undefined> {
  const familyId = (await topology.findNode(nodeId))?.familyId;
  return familyId === undefined ? undefined : (await topology.findFamily(familyId))?.name;
}
