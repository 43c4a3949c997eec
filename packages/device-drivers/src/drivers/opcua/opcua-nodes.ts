/**
 * Which node each datapoint reads: its `originAddress` names an entry of the driver's `nodes`
 * (a NodeId or a browse path in full) or is a compact NodeId (`i:2258`, `2:s:Boiler.Temp`).
 * Browse paths are translated by the server once per session (TranslateBrowsePathsToNodeIds).
 */
import { parseCompactNodeId, type OpcuaNodeReference } from '@triad/device-templates';
import type { BrowsePathResult, ClientSession, NodeIdLike } from 'node-opcua-client';
import { DriverError } from '../../driver-error.js';
import type { PointRequest } from '../../driver.js';
import type { OpcuaNodeSettings, OpcuaSettings } from './opcua-settings.js';

/** A datapoint with the node it reads and how it is sampled. */
export interface OpcuaPoint {
  readonly point: PointRequest;
  readonly settings: OpcuaNodeSettings;
}

const DEFAULT_SAMPLING: Omit<OpcuaNodeSettings, 'node'> = {
  samplingInterval: undefined,
  deadband: { type: 'none', value: 0 },
};

/** The node `point` reads; throws a `configuration` DriverError saying how to write the address. */
export function opcuaPoint(settings: OpcuaSettings, point: PointRequest): OpcuaPoint {
  const named = settings.nodes.get(point.originAddress);
  if (named !== undefined) return { point, settings: named };
  const compact = parseCompactNodeId(point.originAddress);
  if (compact?.ok === true) return { point, settings: { node: compact.node, ...DEFAULT_SAMPLING } };
  throw new DriverError(
    'configuration',
    compact === undefined
      ? `originAddress ${point.originAddress} names no entry of nodes and is not a NodeId such as i:2258 or 2:s:Name`
      : `originAddress ${point.originAddress}: ${compact.reason}`,
  );
}

/** A resolved node: what to read, or why it cannot be read (a status name). */
export type ResolvedNode = { readonly nodeId: NodeIdLike } | { readonly status: string };

/** Remembers the NodeIds of browse paths for one session. */
export class BrowsePathCache {
  #session: ClientSession | undefined;
  #known = new Map<string, ResolvedNode>();

  /** The NodeId of every reference; browse paths not known yet for `session` are translated in one request. */
  async resolve(session: ClientSession, nodes: readonly OpcuaNodeReference[]): Promise<ResolvedNode[]> {
    if (session !== this.#session) {
      this.#session = session;
      this.#known = new Map();
    }
    const missing = new Map<string, OpcuaNodeReference & { kind: 'path' }>();
    for (const node of nodes) if (node.kind === 'path' && !this.#known.has(node.path)) missing.set(node.path, node);
    if (missing.size > 0) {
      const paths = [...missing.values()];
      const results: BrowsePathResult[] = await session.translateBrowsePath(
        paths.map((path) => ({
          startingNode: 'i=84', // the Root folder
          relativePath: {
            elements: path.elements.map((element) => ({
              referenceTypeId: 'i=33', // HierarchicalReferences
              isInverse: false,
              includeSubtypes: true,
              targetName: { namespaceIndex: element.namespaceIndex, name: element.name },
            })),
          },
        })),
      );
      paths.forEach((path, i) => {
        const result = results[i];
        const target = result?.targets?.[0];
        this.#known.set(
          path.path,
          result !== undefined && result.statusCode.isGood() && target !== undefined
            ? { nodeId: target.targetId }
            : { status: result?.statusCode.name ?? 'BadNoMatch' },
        );
      });
    }
    return nodes.map((node) =>
      node.kind === 'nodeId' ? { nodeId: node.nodeId } : (this.#known.get(node.path) ?? { status: 'BadNoMatch' }),
    );
  }
}
