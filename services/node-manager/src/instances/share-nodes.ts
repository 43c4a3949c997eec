import { openChangeBus, startWorkLeases, type ChangeBus, type Database, type WorkLeases } from '@triad/db';
import type { Logger } from '@triad/service-kit';
import type { NodeManagerConfig } from '../config.js';
import type { ErlangNodeConnector } from '../connections/erlang-node-connector.js';
import type { NodeMonitor } from '../monitoring/node-monitor.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import { ChangeRelay, type ChangeRelayOptions } from './change-relay.js';
import type { NodeOwnership } from './node-ownership.js';

/** The parts of the node manager's core that sharing the nodes reads (`NodeManagerCore` has them). */
export interface SharedCore {
  readonly config: Pick<NodeManagerConfig, 'leaseTtlMs' | 'leaseHeartbeatMs'>;
  readonly ownership: NodeOwnership;
  readonly events: ChangeRelayOptions['events'];
  readonly plugins: ChangeRelayOptions['plugins'];
  readonly alarmStore: ChangeRelayOptions['alarms'];
  readonly authenticator: NonNullable<ChangeRelayOptions['authenticator']>;
  readonly users: NonNullable<ChangeRelayOptions['users']>;
  readonly topologyStore: Pick<TopologyRepository, 'listNodes' | 'findNode'>;
}

/** Options of `shareNodes`. */
export interface ShareNodesOptions {
  readonly database: Database<NodeManagerDatabase>;
  readonly core: SharedCore;
  /** The connection layer and monitor of the nodes this instance owns; absent without Erlang. */
  readonly monitoring?: { readonly erlang: ErlangNodeConnector; readonly monitor: NodeMonitor };
  readonly logger: Logger;
}

/** What `shareNodes` started; `close` hands the nodes over (leases deleted) and stops relaying. */
export interface SharedNodes {
  readonly leases: WorkLeases;
  close(): Promise<void>;
}

/**
 * Takes this instance's share of the managed nodes and keeps it (docs/decisions/0027): node
 * leases (`startWorkLeases`, prefix `nm`, the config's `leaseTtlMs`/`leaseHeartbeatMs`) over the
 * live nodes; a node gained is watched from its stored state and connected, a node lost stops
 * being monitored with its alarms left as they are. On PostgreSQL the instances' changes also go
 * through the change bus (`ChangeRelay`). On SQLite every node is this instance's.
 */
export async function shareNodes(options: ShareNodesOptions): Promise<SharedNodes> {
  const { database, core, monitoring, logger } = options;
  const ownership = core.ownership;
  let bus: ChangeBus | undefined;
  let relay: ChangeRelay | undefined;
  let leases: WorkLeases | undefined;
  const refresh = () => {
    leases?.refresh().catch(() => {});
  };
  if (database.capabilities.concurrentWriters) {
    bus = openChangeBus(database, { log: logger });
    relay = await ChangeRelay.start({
      bus,
      instanceId: ownership.instanceId,
      events: core.events,
      plugins: core.plugins,
      alarms: core.alarmStore,
      authenticator: core.authenticator,
      users: core.users,
      onNodesChanged: refresh,
      onError: (error, what) => logger.warn({ err: error }, `${what} failed`),
    });
  }
  try {
    leases = await startWorkLeases({
      database,
      tablePrefix: 'nm',
      instanceId: ownership.instanceId,
      ttlMs: core.config.leaseTtlMs,
      heartbeatMs: core.config.leaseHeartbeatMs,
      listItems: async () => (await core.topologyStore.listNodes()).filter((n) => !n.deleted).map((n) => n.id),
      log: logger,
      onChange: async ({ owned, gained, lost }) => {
        ownership.changed(owned);
        if (!monitoring) return;
        const { erlang, monitor } = monitoring;
        for (const nodeId of lost) {
          const node = await core.topologyStore.findNode(nodeId);
          // Deleted (maybe through another instance): its alarms clear, as on a sole instance.
          if (node?.deleted) monitor.forget(nodeId, node.name);
          else await monitor.release(nodeId);
          await erlang.disconnect(nodeId);
        }
        for (const nodeId of gained) {
          const node = await core.topologyStore.findNode(nodeId);
          if (!node || node.deleted) continue;
          await monitor.watch(nodeId);
          // A node this instance has just added is connected already.
          if (erlang.state(nodeId) !== undefined) continue;
          erlang
            .connect({ id: node.id, name: node.name, cookie: node.cookie, wasUp: node.state !== 'STOPPED' })
            .catch((error: unknown) => logger.warn({ err: error, nodeId }, 'could not start monitoring a node'));
        }
      },
    });
  } catch (error) {
    await relay?.close();
    await bus?.close();
    throw error;
  }
  const started = leases;
  ownership.attach(started, relay ? () => relay.announceNodes() : undefined);
  return {
    leases: started,
    async close() {
      await started.stop();
      await relay?.close();
      await bus?.close();
    },
  };
}
