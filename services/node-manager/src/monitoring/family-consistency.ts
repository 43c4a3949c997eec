import type { NodeFacts, RunningApplication } from '../model/node-facts.js';

/** Alarm id: a node runs an application at another version than a sibling in its family. */
export const DIFFERENT_APPLICATION_VERSIONS = 'different_application_versions';
/** Alarm id: a sibling in the node's family runs an application this node does not. */
export const MISSING_APPLICATION = 'missing_application';

/**
 * How long after its start a node that is still booting stays out of the comparison: past it, a
 * node whose `-eval` never returns (so `init` never says `started`) is compared all the same.
 */
export const BOOT_GRACE_MS = 60_000; // 1 min

/**
 * Whether a node's facts take part in its family's comparison: not while it boots (its
 * applications are still starting; a restarted node waiting for its peers lists none), up to
 * `BOOT_GRACE_MS` of its uptime.
 */
export function comparable(facts: NodeFacts): boolean {
  return !facts.booting || facts.uptimeMs >= BOOT_GRACE_MS;
}

/** What is inconsistent about one node, by alarm id, with the text naming the applications. */
export type NodeInconsistencies = ReadonlyMap<string, string>;

/**
 * Compares the applications of the nodes of one family (node id -> applications). A node gets
 * `missing_application` for every application a sibling runs and it does not, and
 * `different_application_versions` for every application it runs at a version some sibling runs
 * differently; the text lists them (`crypto (on 1 other node)`, `stdlib 4.2 (others: 4.3)`).
 * Nodes with nothing inconsistent are absent. Pure.
 */
export function compareFamily(
  nodes: ReadonlyMap<string, readonly RunningApplication[]>,
): Map<string, NodeInconsistencies> {
  const versions = new Map<string, Map<string, number>>();
  for (const apps of nodes.values()) {
    for (const app of apps) {
      const byVersion = versions.get(app.name) ?? new Map<string, number>();
      byVersion.set(app.version, (byVersion.get(app.version) ?? 0) + 1);
      versions.set(app.name, byVersion);
    }
  }
  const result = new Map<string, NodeInconsistencies>();
  for (const [nodeId, apps] of nodes) {
    const own = new Map(apps.map((a) => [a.name, a.version]));
    const missing: string[] = [];
    const different: string[] = [];
    for (const [name, byVersion] of [...versions].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const version = own.get(name);
      if (version === undefined) {
        const holders = [...byVersion.values()].reduce((sum, n) => sum + n, 0);
        missing.push(`${name} (on ${holders} other node${holders === 1 ? '' : 's'})`);
      } else if (byVersion.size > 1) {
        const others = [...byVersion.keys()].filter((v) => v !== version).sort();
        different.push(`${name} ${version} (others: ${others.join(', ')})`);
      }
    }
    const found = new Map<string, string>();
    if (missing.length > 0) found.set(MISSING_APPLICATION, `missing: ${missing.join(', ')}`);
    if (different.length > 0) found.set(DIFFERENT_APPLICATION_VERSIONS, `different versions: ${different.join(', ')}`);
    if (found.size > 0) result.set(nodeId, found);
  }
  return result;
}
