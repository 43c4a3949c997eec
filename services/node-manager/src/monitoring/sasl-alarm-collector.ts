import { badRpcReason, listElements, tupleOf, type Term } from '@triad/erlang-dist';
import { NODE_LEVEL_SOURCE } from '../model/alarm-record.js';
import type { AlarmSink } from './alarm-sink.js';
import type { AlarmRepository } from '../repositories/alarm-repository.js';
import { alarmSourceText } from '../model/erlang-terms.js';
import { COLLECTOR_RPC_TIMEOUT_MS, type Collector, type MonitoredNode, type RpcCaller } from './collector.js';
import { erlangTermText } from './erlang-term-text.js';
import { plainTermText } from './plain-term-text.js';
import { NODE_DOWN_ALARM_ID } from './node-down-alarms.js';

/** Plugin that switches the SASL alarm collector. */
export const SASL_ALARMS_PLUGIN = 'wombat_plugin_sasl';

/** Severity of every SASL alarm, as the real counterpart reports them. */
export const SASL_ALARM_SEVERITY = 'indeterminate';

/** One alarm of `alarm_handler:get_alarms()` in the text forms the alarm lists use. */
export interface SaslAlarm {
  /**
   * An atom id as its name (`system_memory_high_watermark`), any other id as `~p` prints it
   * (`{disk_almost_full,"/"}`).
   */
  readonly alarmId: string;
  /**
   * The description in plain words (`plainTermText`: `detail` for a charlist or binary, empty for
   * `[]`, `<0.85.0>` for a pid), never Erlang term syntax (docs/decisions/0038).
   */
  readonly additionalInformation: string;
}

/**
 * The alarms of a `get_alarms()` reply (`[{Id, Description}]`), the first of each id kept; none
 * when `alarm_handler` does not exist (`{badrpc,{'EXIT',{noproc,_}}}`: SASL is not running).
 * @throws Error for any other `{badrpc, _}` or a reply that is not a list.
 */
export function parseSaslAlarms(reply: Term, nodeName: string): SaslAlarm[] {
  const reason = badRpcReason(reply);
  // No alarm_handler process: SASL is not running, so the node holds no SASL alarms.
  if (reason !== undefined && erlangTermText(reason).startsWith("{'EXIT',{noproc,")) return [];
  if (reason !== undefined) throw new Error(`alarm_handler:get_alarms() failed: ${erlangTermText(reason)}`);
  const elements = listElements(reply);
  if (!elements) throw new Error(`alarm_handler:get_alarms() gave ${erlangTermText(reply)}`);
  const seen = new Map<string, SaslAlarm>();
  for (const element of elements) {
    const pair = tupleOf(element, 2);
    if (!pair) continue;
    const [id, description] = pair as [Term, Term];
    const alarmId = id.type === 'atom' ? id.name : erlangTermText(id, { localNode: nodeName });
    if (!seen.has(alarmId))
      seen.set(alarmId, { alarmId, additionalInformation: plainTermText(description, { localNode: nodeName }) });
  }
  return [...seen.values()];
}

/**
 * Reads `alarm_handler:get_alarms()` of a node each interval; raises (source `node_level`,
 * severity `indeterminate`, tags dev+op) the alarms that appeared, updates changed descriptions,
 * and clears the ones that vanished. The first read after a start compares with the node's
 * active alarms in the store, so a restarted service clears what vanished while it was away.
 * Switching the plugin off (or deleting the node) clears what the collector raised.
 */
export class SaslAlarmCollector implements Collector {
  readonly plugin = SASL_ALARMS_PLUGIN;
  readonly defaultOn = true;
  readonly intervalMs: number;
  readonly #rpc: RpcCaller;
  readonly #alarms: AlarmSink;
  readonly #store: AlarmRepository;
  /** Per node: alarm id -> additionalInformation last raised. */
  readonly #raised = new Map<string, Map<string, string>>();

  constructor(rpc: RpcCaller, alarms: AlarmSink, store: AlarmRepository, intervalMs: number) {
    this.#rpc = rpc;
    this.#alarms = alarms;
    this.#store = store;
    this.intervalMs = intervalMs;
  }

  async collect(node: MonitoredNode): Promise<void> {
    const reply = await this.#rpc.rpc(node.id, 'alarm_handler', 'get_alarms', [], {
      timeoutMs: COLLECTOR_RPC_TIMEOUT_MS,
    });
    const current = parseSaslAlarms(reply, node.name);
    const raised = this.#raised.get(node.id) ?? (await this.#storedAlarms(node));
    this.#raised.set(node.id, raised);
    for (const alarm of current) {
      if (raised.get(alarm.alarmId) === alarm.additionalInformation) continue;
      await this.#alarms.raise({
        alarmId: alarm.alarmId,
        nodeId: node.id,
        nodeName: node.name,
        severity: SASL_ALARM_SEVERITY,
        additionalInformation: alarm.additionalInformation,
      });
      raised.set(alarm.alarmId, alarm.additionalInformation);
    }
    const now = new Set(current.map((a) => a.alarmId));
    for (const alarmId of [...raised.keys()]) {
      if (now.has(alarmId)) continue;
      await this.#alarms.clear(alarmId, this.#rawSrc(node));
      raised.delete(alarmId);
    }
  }

  async stop(node: MonitoredNode): Promise<void> {
    const raised = this.#raised.get(node.id) ?? (await this.#storedAlarms(node));
    this.#raised.delete(node.id);
    for (const alarmId of raised.keys()) await this.#alarms.clear(alarmId, this.#rawSrc(node));
  }

  released(node: MonitoredNode): void {
    this.#raised.delete(node.id);
  }

  #rawSrc(node: MonitoredNode): string {
    return alarmSourceText(node.id, node.name, NODE_LEVEL_SOURCE, 'wombat');
  }

  /** Active node-level alarms of the node other than `node_down`: what an earlier run raised. */
  async #storedAlarms(node: MonitoredNode): Promise<Map<string, string>> {
    const stored = await this.#store.list({
      nodeIds: [node.id],
      source: NODE_LEVEL_SOURCE,
      tags: 'all',
      limit: 10_000,
    });
    return new Map(
      stored
        .filter((a) => a.active && a.alarmId !== NODE_DOWN_ALARM_ID && a.severity === SASL_ALARM_SEVERITY)
        .map((a) => [a.alarmId, a.additionalInformation]),
    );
  }
}
