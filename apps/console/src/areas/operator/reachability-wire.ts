import type { paths } from '../../generated/node-manager-api.js';
import type { Present, ReplyBody } from '../../shell/api-types.js';

/**
 * The reply of `POST /api/topo/action/analyse-reachability`, as the node manager sends it (its
 * schema lists the members without `required`; the service always sends all four).
 */
export type ReachabilityWire = Present<
  ReplyBody<paths['/api/topo/action/analyse-reachability']['post']>,
  'reachability' | 'details' | 'description' | 'hints'
>;

/** A reachability report as the console shows it. */
export interface Reachability {
  readonly reachable: boolean;
  /** The checks that ran, in order; on failure the last one is the one that failed. */
  readonly checks: readonly string[];
  /** Why the failed check failed (`epmd_not_reachable` ...); undefined when every check passed. */
  readonly reasonCode: string | undefined;
  readonly reasonDetails: string | undefined;
  readonly description: string;
  readonly hints: readonly string[];
}

/**
 * Reads the spec's report shape: `details` is `[{checksPerformed}]` on success and
 * `[{checksPerformed}, {reasonCode}, {reasonDetails}]` on failure. Members of the wrong type are
 * left out rather than trusted.
 */
export function parseReachability(wire: ReachabilityWire): Reachability {
  const member = (key: string): unknown => wire.details.find((d) => key in d)?.[key];
  const checks = member('checksPerformed');
  const code = member('reasonCode');
  const details = member('reasonDetails');
  return {
    reachable: wire.reachability === 'should be reachable',
    checks: Array.isArray(checks) ? checks.filter((c): c is string => typeof c === 'string') : [],
    reasonCode: typeof code === 'string' ? code : undefined,
    reasonDetails: typeof details === 'string' ? details : undefined,
    description: wire.description,
    hints: wire.hints,
  };
}
