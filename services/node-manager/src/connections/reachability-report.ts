import type { ReachabilityReport } from './node-connector.js';

/**
 * The analyse-reachability reply for a failed check, as the spec shapes it: `details` is
 * `[{checksPerformed}, {reasonCode}, {reasonDetails}]` (the checks up to and including the one
 * that failed). Shared by the checks without Erlang and those of the distribution layer.
 */
export function unreachable(
  performed: readonly string[],
  reasonCode: string,
  reasonDetails: string,
  description: string,
  hints: string[],
): ReachabilityReport {
  return {
    reachability: 'is not reachable',
    details: [{ checksPerformed: [...performed] }, { reasonCode }, { reasonDetails }],
    description,
    hints,
  };
}

/** The reply for a name that is not `name@host`: only `check_node_format` ran. */
export function badNodeFormat(name: string): ReachabilityReport {
  return unreachable(
    ['check_node_format'],
    'bad_node_format',
    `${JSON.stringify(name)} is not of the form name@host`,
    'The node name does not have the name@host form.',
    ['Give the node name exactly as node() returns it on that node, e.g. myapp@10.0.0.5 or myapp@myhost.'],
  );
}

/** The reply when every check passed: `details` is `[{checksPerformed}]`. */
export function reachable(performed: readonly string[], description: string, hints: string[]): ReachabilityReport {
  return { reachability: 'should be reachable', details: [{ checksPerformed: [...performed] }], description, hints };
}
