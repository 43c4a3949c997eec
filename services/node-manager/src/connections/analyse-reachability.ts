import { isIP, Socket } from 'node:net';
import type { ReachabilityReport } from './node-connector.js';
import { badNodeFormat, reachable, unreachable } from './reachability-report.js';
import { EPMD_DEFAULTS, listNodes, lookupNodePort, resolveHost, type EpmdOptions } from './epmd-client.js';
import { splitNode } from './open-dist-socket.js';

/** Options of `analyseReachability`. */
export interface ReachabilityOptions extends EpmdOptions {
  /** Extra hints appended when every check passes (e.g. what the connector knows about a wrong cookie). */
  readonly hintsWhenReachable?: readonly string[];
}

/**
 * The six checks of the spec, for real, in order, stopping at the first failure:
 * 1. `check_node_format` — `alive@host` as net_kernel splits it (reason `bad_node_format`);
 * 2. `check_name_type` — long (dotted host or IP) or short; informational, never fails;
 * 3. `check_host_resolution` — DNS / hosts lookup of the host part (`host_not_resolvable`);
 * 4. `check_epmd_port` — a NAMES request to EPMD on the host (`epmd_not_reachable`);
 * 5. `check_node_in_epmd` — PORT_PLEASE2 for the alive part (`node_not_in_epmd`; the details list
 *    what is registered);
 * 6. `check_node_dist_port` — a TCP connect to the port EPMD gave (`dist_port_not_reachable`).
 * Never throws. The reply has the spec's shape: `details` = `[{checksPerformed}, {reasonCode},
 * {reasonDetails}]` on failure, `[{checksPerformed}]` on success.
 */
export async function analyseReachability(
  name: string,
  options: ReachabilityOptions = {},
): Promise<ReachabilityReport> {
  const performed: string[] = ['check_node_format'];
  const parts = splitNode(name);
  if (!parts) return badNodeFormat(name);
  const { alive, host } = parts;
  performed.push('check_name_type');
  const longName = host.includes('.') || isIP(host) !== 0;
  const nameType = longName ? 'long' : 'short';
  const epmd: EpmdOptions = {
    timeoutMs: options.timeoutMs ?? EPMD_DEFAULTS.timeoutMs,
    epmdPort: options.epmdPort ?? EPMD_DEFAULTS.epmdPort,
  };

  performed.push('check_host_resolution');
  const resolved = await resolveHost(host, epmd.timeoutMs);
  if (resolved.kind !== 'resolved') {
    return unreachable(
      performed,
      'host_not_resolvable',
      `${host}: ${resolved.code}`,
      `The host ${host} cannot be resolved.`,
      [
        'Check the host part of the node name and the DNS or /etc/hosts entries of this machine.',
        longName
          ? 'Long names (-name) need a fully qualified host name or an IP address that this machine resolves.'
          : 'Short names (-sname) use the host name without domain: use the name node() returns on that node, ' +
            'and make sure this machine resolves that host.',
      ],
    );
  }

  performed.push('check_epmd_port');
  const names = await listNodes(host, epmd);
  if (names.kind !== 'names') {
    return unreachable(
      performed,
      'epmd_not_reachable',
      `no answer from EPMD at ${resolved.address}:${epmd.epmdPort} (${names.code})`,
      `EPMD on ${host} does not answer on port ${epmd.epmdPort}.`,
      [
        'Start epmd on that host (epmd -daemon), or start the node with -name or -sname, which starts epmd.',
        `Check that firewalls let TCP port ${epmd.epmdPort} through.`,
      ],
    );
  }

  performed.push('check_node_in_epmd');
  const port = await lookupNodePort(host, alive, epmd);
  if (port.kind !== 'port') {
    const registered = names.nodes.map((n) => n.name);
    const detail =
      port.kind === 'notRegistered'
        ? `${alive} is not registered with EPMD on ${host}; registered: ${registered.join(', ') || 'none'}`
        : `EPMD on ${host} stopped answering (${port.code})`;
    return unreachable(
      performed,
      'node_not_in_epmd',
      detail,
      `The node ${alive} is not registered with EPMD on ${host}.`,
      [
        'Check that the node is running and was started with this name.',
        'Use the alive part exactly as node() returns it' +
          (registered.length ? ` (registered on ${host}: ${registered.join(', ')}).` : '.'),
      ],
    );
  }

  performed.push('check_node_dist_port');
  const connected = await canConnect(port.address, port.port, epmd.timeoutMs ?? EPMD_DEFAULTS.timeoutMs);
  if (connected !== true) {
    return unreachable(
      performed,
      'dist_port_not_reachable',
      `no TCP connection to ${port.address}:${port.port} (${connected})`,
      `The distribution port ${port.port} of ${name} cannot be reached.`,
      [
        'Check that firewalls let the distribution port through; pin it with ' +
          `-kernel inet_dist_listen_min ${port.port} inet_dist_listen_max ${port.port} ` +
          '(or a range) and open that range.',
        'Check -kernel inet_dist_use_interface: the node may listen on another interface.',
      ],
    );
  }

  return reachable(performed, `${name} should be reachable (${nameType} name, distribution port ${port.port}).`, [
    'If the node still does not connect, check that its cookie is the one given to the node manager.',
    ...(options.hintsWhenReachable ?? []),
  ]);
}

/** true when a TCP connection opens within the timeout, else the error code or `timeout`. */
function canConnect(address: string, port: number, timeoutMs: number): Promise<true | string> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (result: true | string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    socket.connect(port, address, () => done(true));
  });
}
