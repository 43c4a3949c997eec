import { randomUUID } from 'node:crypto';
import type { NodeLogEvent, NodeManagerEvents } from '../events/node-manager-events.js';
import type { NodeLogEntry } from '../model/node-log-entry.js';
import type { NodeLogRepository } from '../repositories/node-log-repository.js';
import type { TopologyRepository } from '../repositories/topology-repository.js';
import type { MonitoredNode } from './collector.js';

/** Tags of every collected log entry: WombatOAM's default log tags (`wo_logs default_tags`). */
export const NODE_LOG_TAGS: readonly string[] = Object.freeze(['dev', 'op']);

/**
 * Where the log collectors put what they read from a node: stored (bounded per node), each crash
 * report also counted as a crash log (node-stat), and each entry pushed to live subscribers as
 * `{"type":"log","nodeId","nodeName","log":{time,level,kind,text}}` to users with one of `NODE_LOG_TAGS`,
 * `log` made by `present` (the node log presenter, handed in by the composition root).
 */
export class NodeLogs {
  readonly #store: NodeLogRepository;
  readonly #crashes: Pick<TopologyRepository, 'recordCrashLog'>;
  readonly #events: NodeManagerEvents;
  readonly #present: (entry: NodeLogEntry) => NodeLogEvent['log'];
  readonly #now: () => number;

  constructor(
    store: NodeLogRepository,
    crashes: Pick<TopologyRepository, 'recordCrashLog'>,
    events: NodeManagerEvents,
    present: (entry: NodeLogEntry) => NodeLogEvent['log'],
    now: () => number = Date.now,
  ) {
    this.#store = store;
    this.#crashes = crashes;
    this.#events = events;
    this.#present = present;
    this.#now = now;
  }

  /** The stored entries (the route reads them here). */
  get store(): NodeLogRepository {
    return this.#store;
  }

  async record(node: MonitoredNode, entries: readonly NodeLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#store.append(node.id, entries);
    const at = this.#now();
    for (const entry of entries) {
      if (entry.kind === 'crash_report') await this.#crashes.recordCrashLog(randomUUID(), node.id, at);
      this.#events.emit({
        type: 'log',
        nodeId: node.id,
        nodeName: node.name,
        log: this.#present(entry),
        tags: NODE_LOG_TAGS,
      });
    }
  }
}
