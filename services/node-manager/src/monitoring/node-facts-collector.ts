import type { AlarmSink } from './alarm-sink.js';
import type { AlarmRepository } from '../repositories/alarm-repository.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import type { Collector, MonitoredNode, RpcCaller } from './collector.js';
import { alarmSourceText } from '../model/erlang-terms.js';
import {
  comparable,
  compareFamily,
  DIFFERENT_APPLICATION_VERSIONS,
  MISSING_APPLICATION,
} from './family-consistency.js';
import type { RunningApplication } from '../model/node-facts.js';
import { NODE_FACTS_EXPRESSION, parseNodeFacts, type NodeFactsStore } from './node-facts.js';

/**
 * Plugin name of the node facts collector. It is not among a node's listed plugins, so it cannot be
 * switched off: the node object always shows its facts (WombatOAM's node info is not optional).
 */
export const NODE_FACTS_PLUGIN = 'wombat_plugin_node_info';

/** Source (`src.custom`) of the family consistency alarms. */
export const FAMILY_CONSISTENCY_SOURCE = 'family_consistency';

/** Severity of the family consistency alarms (WombatOAM: warning, tag op). */
export const FAMILY_CONSISTENCY_SEVERITY = 'warning';

/** The nodes, to find a node's family and its siblings. */
export type FamilyNodes = Pick<TopologyRepository, 'findNode' | 'listNodes'>;

/**
 * Reads the facts of each UP node every interval (`NODE_FACTS_SOURCE`, one RPC) into `store`, and
 * after each read compares the applications of the node's family (the live nodes of it with facts,
 * so UP ones read since they came UP, and not while one boots: see `comparable`):
 * `missing_application` and `different_application_versions` (source `family_consistency`,
 * severity `warning`, tag `op`) are raised on the nodes that differ and cleared on the others. A
 * node that leaves UP or is deleted loses its facts and its consistency alarms, and its family is
 * compared again without it. The first comparison after a start takes over the consistency alarms
 * left active in the store.
 */
export class NodeFactsCollector implements Collector {
  readonly plugin = NODE_FACTS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #store: NodeFactsStore;
  readonly #alarms: AlarmSink;
  readonly #alarmStore: Pick<AlarmRepository, 'list'>;
  readonly #topology: FamilyNodes;
  readonly #now: () => number;
  /** Per node: the consistency alarms raised (id -> text). */
  readonly #raised = new Map<string, Map<string, string>>();
  /** Names of nodes with raised alarms, to clear them after a delete. */
  readonly #names = new Map<string, string>();
  readonly #owns: (nodeId: string) => boolean;
  /** Family comparisons run one at a time, so raises and clears of two reads cannot interleave. */
  #comparing: Promise<void> = Promise.resolve();

  constructor(
    rpc: RpcCaller,
    store: NodeFactsStore,
    alarms: AlarmSink,
    alarmStore: Pick<AlarmRepository, 'list'>,
    topology: FamilyNodes,
    intervalMs: number,
    now: () => number = Date.now,
    owns: (nodeId: string) => boolean = () => true,
  ) {
    this.#rpc = rpc;
    this.#store = store;
    this.#alarms = alarms;
    this.#alarmStore = alarmStore;
    this.#topology = topology;
    this.intervalMs = intervalMs;
    this.#now = now;
    this.#owns = owns;
  }

  async collect(node: MonitoredNode): Promise<void> {
    const readAt = this.#now();
    await this.#store.put(node.id, parseNodeFacts(await NODE_FACTS_EXPRESSION.evaluate(this.#rpc, node.id), readAt));
    await this.#compare((await this.#topology.findNode(node.id))?.familyId);
  }

  async stop(node: MonitoredNode): Promise<void> {
    await this.#forget(node);
  }

  /** Another instance reads the node now: its facts leave this instance's node objects. */
  released(node: MonitoredNode): void {
    this.#store.forget(node.id);
    this.#raised.delete(node.id);
    this.#names.delete(node.id);
  }

  async paused(node: MonitoredNode): Promise<void> {
    await this.#forget(node);
  }

  async #forget(node: MonitoredNode): Promise<void> {
    await this.#store.remove(node.id);
    this.#names.set(node.id, node.name);
    const familyId = (await this.#topology.findNode(node.id))?.familyId;
    await this.#compare(familyId, node.id);
  }

  /**
   * Compares the family (and clears what `gone` had raised). With several instances the family's
   * facts come from every instance (`NodeFactsStore.read`), and only the nodes this one owns get
   * their alarms raised or cleared here: each owner does its own.
   */
  #compare(familyId: string | undefined, gone?: string): Promise<void> {
    const run = this.#comparing.then(async () => {
      const members = new Map<string, readonly RunningApplication[]>();
      const names = new Map<string, string>();
      if (familyId !== undefined) {
        const family = (await this.#topology.listNodes()).filter((n) => n.familyId === familyId);
        const facts = await this.#store.read(family.filter((n) => !n.deleted && n.id !== gone).map((n) => n.id));
        for (const n of family) {
          const read = facts.get(n.id);
          if (read && comparable(read)) members.set(n.id, read.applications);
          names.set(n.id, n.name);
        }
      }
      const found = compareFamily(members);
      const affected = new Set([...names.keys()].filter((id) => this.#owns(id)).concat(gone ?? []));
      for (const nodeId of affected) {
        const name = names.get(nodeId) ?? this.#names.get(nodeId);
        if (name !== undefined) await this.#apply(nodeId, name, found.get(nodeId) ?? new Map<string, string>());
      }
    });
    this.#comparing = run.catch(() => undefined);
    return run;
  }

  /**
   * The consistency alarms active for a node: read from the store the first time (what an earlier
   * run, or the node's previous owner, left active), so they clear once the family agrees.
   */
  async #raisedOn(nodeId: string): Promise<Map<string, string>> {
    const known = this.#raised.get(nodeId);
    if (known) return known;
    const stored = await this.#alarmStore.list({
      nodeIds: [nodeId],
      source: FAMILY_CONSISTENCY_SOURCE,
      tags: 'all',
      limit: 1000,
    });
    const raised = new Map<string, string>();
    for (const alarm of stored)
      if (alarm.active && alarm.elarmServer === 'wombat') raised.set(alarm.alarmId, alarm.additionalInformation);
    this.#raised.set(nodeId, raised);
    return raised;
  }

  async #apply(nodeId: string, nodeName: string, wanted: ReadonlyMap<string, string>): Promise<void> {
    const raised = await this.#raisedOn(nodeId);
    for (const alarmId of [DIFFERENT_APPLICATION_VERSIONS, MISSING_APPLICATION]) {
      const text = wanted.get(alarmId);
      // Texts stored before 0038 were Erlang-printed (`<<"...">>`): they differ, so are raised again in plain words.
      if (text === raised.get(alarmId)) continue;
      if (text === undefined) {
        await this.#alarms.clear(alarmId, alarmSourceText(nodeId, nodeName, FAMILY_CONSISTENCY_SOURCE, 'wombat'));
        raised.delete(alarmId);
      } else {
        await this.#alarms.raise({
          alarmId,
          nodeId,
          nodeName,
          custom: FAMILY_CONSISTENCY_SOURCE,
          severity: FAMILY_CONSISTENCY_SEVERITY,
          additionalInformation: text,
          tags: ['op'],
        });
        raised.set(alarmId, text);
      }
    }
    if (raised.size > 0) this.#names.set(nodeId, nodeName);
    else this.#names.delete(nodeId);
  }
}
