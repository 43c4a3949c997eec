import type { Logger } from '@triad/service-kit';
import type { NodeManagerConfig } from '../config.js';
import { DistListener, type DistListenerEvent } from './dist-listener.js';
import { EpmdKeeper, type EpmdKeeperState } from './epmd-keeper.js';
import {
  DISCOVERY_PROCESS_NAME,
  SelfRegistration,
  type SelfRegistrationStore,
  type SelfRegistrationTopology,
} from './self-registration.js';

/** The node manager running as a named Erlang node. */
export interface DiscoveryNode {
  /** Our node name, `alive@host`. */
  readonly name: string;
  /** The distribution port EPMD tells peers. */
  readonly port: number;
  /** Nodes connected to us now. */
  readonly peers: () => readonly string[];
  /**
   * `registered` while EPMD knows our name; `reregistering` after EPMD dropped it (killed or
   * restarted) until a new registration succeeds; `closed` after `close()`.
   */
  readonly epmdState: () => EpmdKeeperState;
  /** Unregisters from EPMD, stops listening, closes every connection. Idempotent. */
  close(): Promise<void>;
}

/** What `startDiscoveryNode` works with. */
export interface DiscoveryNodeDeps {
  readonly topology: SelfRegistrationTopology;
  readonly store: SelfRegistrationStore;
  readonly logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** EPMD's port on this machine; default 4369. */
  readonly epmdPort?: number;
  /** First wait before registering with EPMD again after it dropped us; doubles up to 30 s. Default 500 ms. */
  readonly epmdRetryMs?: number;
}

/**
 * When `config.nodeName` is set: listens for distribution connections, registers the name with the
 * local EPMD (again whenever EPMD drops it, `EpmdKeeper`) and answers WombatOAM's discovery call
 * (`SelfRegistration`) as the system. Resolves undefined when self-registration is off. Rejects
 * (leaving nothing open) when the port or the name cannot be had, with a message saying what to do.
 */
export async function startDiscoveryNode(
  config: NodeManagerConfig,
  deps: DiscoveryNodeDeps,
): Promise<DiscoveryNode | undefined> {
  const { nodeName: name, nodeCookie: cookie } = config;
  if (name === undefined || cookie === undefined) return undefined;
  const { logger } = deps;
  deps.topology.reserveOwnName(name);
  const registration = new SelfRegistration({
    topology: deps.topology,
    store: deps.store,
    family: config.discoveryFamily,
    perMinute: config.discoveryPerMinute,
    onAdded: (node) =>
      logger.info(
        { node: node.name, nodeId: node.id, familyId: node.familyId, actor: 'system', via: 'self-registration' },
        'a node registered itself and was added',
      ),
    onRefused: (caller, reason, error) =>
      logger.warn({ node: caller, reason, err: error }, 'a node asked to register itself and was refused'),
  });
  const listener = await DistListener.listen({
    name,
    cookie,
    port: config.nodePort,
    host: config.nodeListenAddress,
    handlers: new Map([[DISCOVERY_PROCESS_NAME, (request, caller) => registration.handle(request, caller)]]),
    limits: { maxConnections: config.nodeMaxConnections },
    onEvent: (event) => logEvent(logger, event),
  }).catch((error: unknown) => {
    throw new Error(
      `cannot listen for Erlang distribution on ${config.nodeListenAddress}:${config.nodePort}` +
        ' (TRIAD_NODE_LISTEN_ADDRESS, TRIAD_NODE_PORT)',
      { cause: error },
    );
  });
  try {
    const epmd = await EpmdKeeper.start({
      alive: name.slice(0, name.indexOf('@')),
      port: listener.port,
      ...(deps.epmdPort === undefined ? {} : { epmdPort: deps.epmdPort }),
      ...(deps.epmdRetryMs === undefined ? {} : { firstRetryMs: deps.epmdRetryMs }),
      onLost: () => logger.error({ node: name }, 'EPMD closed our registration: nodes cannot find us until it is back'),
      onRetryFailed: (error, attempt, retryInMs) =>
        logger.warn({ node: name, attempt, retryInMs, err: error }, 'could not register with EPMD again'),
      onRegistered: (attempts, creation) =>
        logger.info({ node: name, attempts, creation }, 'registered with EPMD again: nodes can find us'),
    });
    listener.ready(epmd.creation);
    let closed: Promise<void> | undefined;
    return {
      name,
      port: listener.port,
      peers: () => listener.peers,
      epmdState: () => epmd.state,
      close: () => {
        closed ??= (async () => {
          epmd.close();
          await listener.close();
        })();
        return closed;
      },
    };
  } catch (error) {
    await listener.close();
    throw error;
  }
}

function logEvent(logger: DiscoveryNodeDeps['logger'], event: DistListenerEvent): void {
  switch (event.kind) {
    case 'connected':
      logger.debug({ node: event.peer }, 'Erlang node connected');
      return;
    case 'disconnected':
      logger.debug({ node: event.peer, reason: event.reason }, 'Erlang node disconnected');
      return;
    case 'refused':
      logger.warn({ address: event.address, reason: event.reason }, 'refused an Erlang distribution connection');
      return;
  }
}
