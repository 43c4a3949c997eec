import type { ReachabilityReport } from './node-connector.js';
import { badNodeFormat, reachable, unreachable } from './reachability-report.js';

/** The EPMD port every Erlang host listens on. */
export const EPMD_PORT = 4369;

/** The few effects the checks need, so tests can fake DNS and TCP. */
export interface ReachabilityProbes {
  /** Resolves a host name; rejects when it cannot. */
  lookup(host: string): Promise<string>;
  /** Resolves true when a TCP connection to host:port opens within the probe's timeout. */
  canConnect(host: string, port: number): Promise<boolean>;
}

/** `name@host` with an Erlang-atom-friendly name part and a host part. */
const NODE_NAME = /^([A-Za-z0-9_-]{1,255})@([A-Za-z0-9_.-]{1,255})$/;

/** Splits `name@host`; undefined when the text is not in that form. */
export function splitNodeName(text: string): { name: string; host: string } | undefined {
  const match = NODE_NAME.exec(text);
  return match?.[1] && match[2] ? { name: match[1], host: match[2] } : undefined;
}

/**
 * The checks that need no Erlang: node format, name type (short or long), host resolution and
 * the EPMD port. `check_node_in_epmd` and `check_node_dist_port` belong to the distribution layer.
 */
export async function checkReachability(name: string, probes: ReachabilityProbes): Promise<ReachabilityReport> {
  const performed: string[] = ['check_node_format'];
  const parts = splitNodeName(name);
  if (!parts) return badNodeFormat(name);
  performed.push('check_name_type');
  const longName = parts.host.includes('.');
  performed.push('check_host_resolution');
  try {
    await probes.lookup(parts.host);
  } catch (error) {
    return unreachable(
      performed,
      'host_not_resolvable',
      `${parts.host}: ${(error as { code?: string }).code ?? 'lookup failed'}`,
      `The host ${parts.host} cannot be resolved.`,
      [
        'Check the host part of the node name and the DNS or /etc/hosts entries of this machine.',
        longName
          ? 'Long names need a fully qualified host name or an IP address.'
          : 'Short names need the host to resolve without a domain.',
      ],
    );
  }
  performed.push('check_epmd_port');
  if (!(await probes.canConnect(parts.host, EPMD_PORT))) {
    return unreachable(
      performed,
      'epmd_not_reachable',
      `no TCP connection to ${parts.host}:${EPMD_PORT}`,
      `EPMD on ${parts.host} does not answer on port ${EPMD_PORT}.`,
      [
        'Check that the node is started with a name (-name or -sname), which starts EPMD.',
        `Check that firewalls let TCP port ${EPMD_PORT} and the node's distribution port through.`,
      ],
    );
  }
  return reachable(
    performed,
    `${name} passed the checks that were performed (${longName ? 'long' : 'short'} name).`,
    [],
  );
}
