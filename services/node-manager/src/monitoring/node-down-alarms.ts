import { NODE_LEVEL_SOURCE } from '../model/alarm-record.js';
import type { AlarmSink } from './alarm-sink.js';
import { alarmSourceText } from '../model/erlang-terms.js';

/** Alarm id of an unreachable managed node. */
export const NODE_DOWN_ALARM_ID = 'node_down';

/** Severity of `node_down` (the real counterpart's built-in alarm list: major). */
export const NODE_DOWN_SEVERITY = 'major';

/**
 * The plain-language text of a `node_down` alarm (never Erlang term syntax): the state the node is
 * in when raised and how long it has been out of UP. DOWN is a node lost without a stop asked for
 * (docs/decisions/0038); STOPPED one that has not run since it was added.
 */
export function nodeDownText(nodeName: string, state: string, afterMs: number): string {
  return state === 'STOPPED'
    ? `Node ${nodeName} is stopped: it has not been running for ${durationText(afterMs)}.`
    : `Node ${nodeName} is down: it has been unreachable for ${durationText(afterMs)}.`;
}

/** `300 milliseconds`, `1 second`, `30 seconds`, `1.5 seconds`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms} millisecond${ms === 1 ? '' : 's'}`;
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** Called with errors of raise/clear (database trouble); the timers go on. */
export type MonitorErrorHandler = (error: unknown, nodeId: string, what: string) => void;

/**
 * The `node_down` rule: a managed node that stays out of UP (DOWN or STOPPED) for `afterMs`
 * gets the alarm (source `node_level`, severity `major`, tags dev+op); the alarm clears when the
 * node is UP again or is deleted. A node that comes back before `afterMs` raises nothing.
 */
export class NodeDownAlarms {
  readonly #alarms: AlarmSink;
  readonly #afterMs: number;
  readonly #onError: MonitorErrorHandler;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /**
   * The latest state out of UP per waiting node: a killed node is DOWN first and STOPPED once its
   * EPMD entry is gone, and the alarm names the state it is in when raised.
   */
  readonly #states = new Map<string, string>();
  /**
   * Per node, the raise/clear in progress: changes of one node run in order, so a late raise cannot
   * outlive a clear.
   */
  readonly #work = new Map<string, Promise<void>>();

  constructor(alarms: AlarmSink, afterMs: number, onError: MonitorErrorHandler) {
    this.#alarms = alarms;
    this.#afterMs = afterMs;
    this.#onError = onError;
  }

  /** Feeds a node's current state; repeated reports of the same state keep the first timer. */
  observe(nodeId: string, nodeName: string, state: string): void {
    if (state === 'UP') {
      this.#cancel(nodeId);
      this.#clear(nodeId, nodeName);
      return;
    }
    this.#states.set(nodeId, state);
    if (this.#timers.has(nodeId)) return;
    const timer = setTimeout(() => {
      this.#timers.delete(nodeId);
      const latest = this.#states.get(nodeId) ?? state;
      this.#states.delete(nodeId);
      this.#run(nodeId, 'raise node_down', async () => {
        // Raised already (by this instance before a restart, or by the node's previous owner).
        if (await this.#alarms.isActive(NODE_DOWN_ALARM_ID, this.#rawSrc(nodeId, nodeName))) return;
        await this.#alarms.raise({
          alarmId: NODE_DOWN_ALARM_ID,
          nodeId,
          nodeName,
          severity: NODE_DOWN_SEVERITY,
          additionalInformation: nodeDownText(nodeName, latest, this.#afterMs),
        });
      });
    }, this.#afterMs);
    timer.unref();
    this.#timers.set(nodeId, timer);
  }

  /** The node was deleted: no alarm will be raised for it, an active one is cleared. */
  forget(nodeId: string, nodeName: string): void {
    this.#cancel(nodeId);
    this.#clear(nodeId, nodeName);
  }

  /** The node moved to another instance: its timer stops, nothing is raised or cleared. */
  release(nodeId: string): void {
    this.#cancel(nodeId);
  }

  /** Stops every timer (service shutdown); active alarms stay. */
  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#states.clear();
  }

  #cancel(nodeId: string): void {
    const timer = this.#timers.get(nodeId);
    if (timer) clearTimeout(timer);
    this.#timers.delete(nodeId);
    this.#states.delete(nodeId);
  }

  #clear(nodeId: string, nodeName: string): void {
    this.#run(nodeId, 'clear node_down', async () => {
      await this.#alarms.clear(NODE_DOWN_ALARM_ID, this.#rawSrc(nodeId, nodeName));
    });
  }

  #rawSrc(nodeId: string, nodeName: string): string {
    return alarmSourceText(nodeId, nodeName, NODE_LEVEL_SOURCE, 'wombat');
  }

  #run(nodeId: string, what: string, work: () => Promise<void>): void {
    const next = (this.#work.get(nodeId) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => this.#onError(error, nodeId, what))
      .finally(() => {
        if (this.#work.get(nodeId) === next) this.#work.delete(nodeId);
      });
    this.#work.set(nodeId, next);
  }

  /** Resolves when every raise/clear started so far has finished (shutdown, tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.#work.values()]);
  }
}
