import { listElements } from '@triad/erlang-dist';
import type { NodeLogEntry } from '../model/node-log-entry.js';
import { COLLECTOR_RPC_TIMEOUT_MS, type Collector, type MonitoredNode, type RpcCaller } from './collector.js';
import { erlangTermText } from './erlang-term-text.js';
import type { NodeLogs } from './node-logs.js';

/** Plugin that switches the code-load collector (WombatOAM's code tracer: "code loaded", "code purged"). */
export const CODE_TRACER_PLUGIN = 'wombat_plugin_code_tracer';

/**
 * Reports modules loaded onto and purged from managed nodes as log entries (`code_loaded`,
 * `code_purged`, level notice): each interval it reads `erlang:loaded()` (the names of the loaded
 * modules; one RPC, nothing installed on the node) and compares with the previous read. The first
 * read of a node is the baseline. A module reloaded between two reads (same name, new code) is not
 * seen, nor one loaded and purged between them. Off by default, as in WombatOAM.
 */
export class CodeLoadCollector implements Collector {
  readonly plugin = CODE_TRACER_PLUGIN;
  readonly defaultOn = false;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #logs: Pick<NodeLogs, 'record'>;
  readonly #now: () => number;
  readonly #loaded = new Map<string, ReadonlySet<string>>();

  constructor(rpc: RpcCaller, logs: Pick<NodeLogs, 'record'>, intervalMs: number, now: () => number = Date.now) {
    this.#rpc = rpc;
    this.#logs = logs;
    this.intervalMs = intervalMs;
    this.#now = now;
  }

  async collect(node: MonitoredNode): Promise<void> {
    const reply = await this.#rpc.rpc(node.id, 'erlang', 'loaded', [], { timeoutMs: COLLECTOR_RPC_TIMEOUT_MS });
    const modules = listElements(reply)?.map((m) => (m.type === 'atom' ? m.name : undefined));
    if (!modules || modules.some((m) => m === undefined))
      throw new Error(`erlang:loaded() gave ${erlangTermText(reply)}`);
    const now = new Set(modules as string[]);
    const before = this.#loaded.get(node.id);
    this.#loaded.set(node.id, now);
    if (!before) return;
    const timeUs = this.#now() * 1000;
    const entry = (kind: string, module: string): NodeLogEntry => ({
      timeUs,
      level: 'notice',
      kind,
      text: `${kind === 'code_loaded' ? 'loaded' : 'purged'} module ${module}`,
    });
    const changes = [
      ...[...now]
        .filter((m) => !before.has(m))
        .sort()
        .map((m) => entry('code_loaded', m)),
      ...[...before]
        .filter((m) => !now.has(m))
        .sort()
        .map((m) => entry('code_purged', m)),
    ];
    await this.#logs.record(node, changes);
  }

  stop(node: MonitoredNode): Promise<void> {
    this.#loaded.delete(node.id);
    return Promise.resolve();
  }

  released(node: MonitoredNode): void {
    this.#loaded.delete(node.id);
  }

  paused(node: MonitoredNode): Promise<void> {
    // A restarted node loads everything again: start from a fresh baseline.
    this.#loaded.delete(node.id);
    return Promise.resolve();
  }
}
