import type { NodeManagerConfig } from '../config.js';
import type { NodeManagerEvents } from '../events/node-manager-events.js';
import type { PluginRepository } from '../repositories/plugin-repository.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import type { AlarmSink } from './alarm-sink.js';
import type { Collector, MonitoredNode } from './collector.js';
import { NodeDownAlarms, type MonitorErrorHandler } from './node-down-alarms.js';

/** The parts of the node manager's core the monitor reads (`NodeManagerCore` has them). */
export interface MonitoredCore {
  readonly config: Pick<NodeManagerConfig, 'nodeDownAlarmAfterMs'>;
  readonly alarms: AlarmSink;
  readonly events: Pick<NodeManagerEvents, 'subscribe'>;
  readonly plugins: Pick<PluginRepository, 'onChange' | 'list'>;
  readonly topologyStore: Pick<TopologyRepository, 'listNodes' | 'findNode'>;
}

/** Options of `NodeMonitor`. */
export interface NodeMonitorOptions {
  readonly core: MonitoredCore;
  /** The collectors (one per plugin). */
  readonly collectors: readonly Collector[];
  /** Failures of collectors and alarm writes (for logs; never holds a cookie). */
  readonly onError?: MonitorErrorHandler;
  /**
   * Whether this instance monitors a node (its lease, docs/decisions/0027); default every node.
   * Nodes it does not own are watched only once `watch` is called.
   */
  readonly owns?: (nodeId: string) => boolean;
}

interface Watched {
  node: MonitoredNode;
  state: string;
  /**
   * The connection layer reported `state` since the monitor started. A stored state is only a
   * memory of the last run: collectors wait for a reported UP (no RPCs before connections exist).
   */
  reported: boolean;
  /** Reported changes into UP so far: a loop started in an earlier one belongs to an old connection. */
  upCount: number;
  /** Running poll loops by plugin name. */
  readonly loops: Map<string, PollLoop>;
}

/** Calls `work` now and then `intervalMs` after each run ends, until stopped. */
class PollLoop {
  /** `Watched.upCount` when it started. */
  readonly upCount: number;
  readonly #intervalMs: number;
  readonly #work: () => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #running: Promise<void> = Promise.resolve();

  constructor(upCount: number, intervalMs: number, work: () => Promise<void>) {
    this.upCount = upCount;
    this.#intervalMs = intervalMs;
    this.#work = work;
    this.#tick();
  }

  #tick(): void {
    if (this.#stopped) return;
    this.#running = this.#work().finally(() => {
      if (this.#stopped) return;
      this.#timer = setTimeout(() => this.#tick(), this.#intervalMs);
      this.#timer.unref();
    });
  }

  /** Stops the loop; resolves once a run in progress has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running.catch(() => {});
  }
}

/**
 * Monitoring of managed nodes, driven by the core's `node_state` events and plugin changes:
 * the `node_down` rule (`NodeDownAlarms`), and each collector polling every UP node whose plugin
 * is on. Switching a plugin off stops its collector for that node (`Collector.stop`); on starts
 * it. Deleting a node stops everything for it.
 */
export class NodeMonitor {
  readonly #core: MonitoredCore;
  readonly #collectors: readonly Collector[];
  readonly #onError: MonitorErrorHandler;
  readonly #owns: (nodeId: string) => boolean;
  readonly #nodeDown: NodeDownAlarms;
  readonly #nodes = new Map<string, Watched>();
  readonly #unsubscribe: (() => void)[] = [];
  /** Plugin reconciliation per node, one at a time. */
  readonly #sync = new Map<string, Promise<void>>();
  #closed = false;

  constructor(options: NodeMonitorOptions) {
    this.#core = options.core;
    this.#collectors = options.collectors;
    this.#onError = options.onError ?? (() => {});
    this.#owns = options.owns ?? (() => true);
    this.#nodeDown = new NodeDownAlarms(options.core.alarms, options.core.config.nodeDownAlarmAfterMs, this.#onError);
  }

  /**
   * Subscribes to changes and starts the rules for every stored live node it owns (their stored
   * state counts until a new one is reported). Only changes made by this instance count: another
   * instance's node states come from connections it owns. A node deleted here is forgotten (its
   * `node_down` cleared) whoever owns it, so the clear happens once.
   */
  async start(): Promise<void> {
    this.#unsubscribe.push(
      this.#core.events.subscribe((event, origin) => {
        if (event.type !== 'node_state' || origin !== 'local') return;
        if (event.deleted) this.forget(event.nodeId, event.nodeName);
        else if (this.#owns(event.nodeId)) this.#observe({ id: event.nodeId, name: event.nodeName }, event.state, true);
      }),
      this.#core.plugins.onChange((nodeId) => this.#reconcile(nodeId)),
    );
    for (const node of await this.#core.topologyStore.listNodes()) {
      if (!node.deleted && !this.#nodes.has(node.id) && this.#owns(node.id))
        this.#observe({ id: node.id, name: node.name }, node.state, false);
    }
  }

  /**
   * Starts watching a node this instance has just taken over, from its stored state (the
   * connection reports the real one). Its stored alarms stay: `node_down` is not raised again
   * while active, and the collectors compare with the store on their first read.
   */
  async watch(nodeId: string): Promise<void> {
    if (this.#closed || this.#nodes.has(nodeId)) return;
    const node = await this.#core.topologyStore.findNode(nodeId);
    if (node && !node.deleted && !this.#nodes.has(nodeId))
      this.#observe({ id: node.id, name: node.name }, node.state, false);
  }

  /**
   * Stops watching a node another instance takes over: loops and timers stop, nothing is raised
   * or cleared, and the collectors forget what they kept in memory about it.
   */
  release(nodeId: string): Promise<void> {
    this.#nodeDown.release(nodeId);
    const watched = this.#nodes.get(nodeId);
    this.#nodes.delete(nodeId);
    if (!watched) return Promise.resolve();
    this.#queue(nodeId, async () => {
      for (const loop of watched.loops.values()) await loop.stop();
      watched.loops.clear();
      for (const collector of this.#collectors) collector.released?.(watched.node);
    });
    return this.#sync.get(nodeId) ?? Promise.resolve();
  }

  /** Plugin names whose collector currently runs for a node (for tests and diagnostics). */
  running(nodeId: string): string[] {
    return [...(this.#nodes.get(nodeId)?.loops.keys() ?? [])];
  }

  /** Stops every loop and timer; raised alarms stay (they are still true). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#nodeDown.close();
    await Promise.all([...this.#sync.values()]);
    await Promise.all([...this.#nodes.values()].flatMap((w) => [...w.loops.values()].map((loop) => loop.stop())));
    this.#nodes.clear();
    await this.#nodeDown.settled();
  }

  #observe(node: MonitoredNode, state: string, reported: boolean): void {
    if (this.#closed) return;
    const watched = this.#nodes.get(node.id) ?? {
      node,
      state,
      reported,
      upCount: 0,
      loops: new Map<string, PollLoop>(),
    };
    if (reported && state === 'UP' && (watched.state !== 'UP' || !watched.reported)) watched.upCount++;
    watched.node = node;
    watched.state = state;
    watched.reported ||= reported;
    this.#nodes.set(node.id, watched);
    this.#nodeDown.observe(node.id, node.name, state);
    this.#reconcile(node.id);
  }

  /**
   * A deleted node: no `node_down` will be raised for it and an active one clears; its collectors
   * stop (clearing what they raised). Also run by the node's owner when another instance deleted it.
   */
  forget(nodeId: string, nodeName: string): void {
    this.#nodeDown.forget(nodeId, nodeName);
    const watched = this.#nodes.get(nodeId);
    this.#nodes.delete(nodeId);
    if (!watched) return;
    this.#queue(nodeId, async () => {
      for (const [plugin, loop] of watched.loops) {
        await loop.stop();
        await this.#collector(plugin)?.stop(watched.node);
      }
      watched.loops.clear();
    });
  }

  /**
   * Starts the loops a node should have (reported UP, plugin on) and stops the others. A loop from
   * before the node's latest change into UP stops too (`paused`) and starts afresh, even when the
   * node is UP again by the time this runs: what it read belongs to the old connection.
   */
  #reconcile(nodeId: string): void {
    this.#queue(nodeId, async () => {
      const watched = this.#nodes.get(nodeId);
      if (!watched || this.#closed) return;
      const stored = new Map((await this.#core.plugins.list(nodeId)).map((p) => [p.name, p.state]));
      for (const collector of this.#collectors) {
        const on = (stored.get(collector.plugin) ?? (collector.defaultOn ? 'on' : 'off')) === 'on';
        const loop = watched.loops.get(collector.plugin);
        const up = watched.state === 'UP' && watched.reported;
        if (loop && !(up && on && loop.upCount === watched.upCount)) {
          watched.loops.delete(collector.plugin);
          await loop.stop();
          if (on) await collector.paused?.(watched.node);
          else await collector.stop(watched.node);
        }
        if (up && on && !watched.loops.has(collector.plugin) && !this.#closed) {
          watched.loops.set(
            collector.plugin,
            new PollLoop(watched.upCount, collector.intervalMs, () =>
              collector
                .collect(watched.node)
                .catch((error: unknown) => this.#onError(error, nodeId, `${collector.plugin} collection`)),
            ),
          );
        }
      }
    });
  }

  #collector(plugin: string): Collector | undefined {
    return this.#collectors.find((c) => c.plugin === plugin);
  }

  #queue(nodeId: string, work: () => Promise<void>): void {
    const next = (this.#sync.get(nodeId) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => this.#onError(error, nodeId, 'plugin reconciliation'))
      .finally(() => {
        if (this.#sync.get(nodeId) === next) this.#sync.delete(nodeId);
      });
    this.#sync.set(nodeId, next);
  }
}
