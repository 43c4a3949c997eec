/** The source every node has, listed even without alarms. */
export const NODE_LEVEL_SOURCE = 'node_level';

/** Tags of built-in alarms (WombatOAM's `wo_alarms default_tags`). */
export const DEFAULT_ALARM_TAGS: readonly string[] = Object.freeze(['dev', 'op']);

/** A comment on an alarm. `time` is ms since the epoch. */
export interface AlarmComment {
  readonly user: string;
  readonly time: number;
  readonly text: string;
}

/** A stored alarm; `eventUs` (the raise instant in µs) identifies the event and orders lists. */
export interface AlarmRecord {
  readonly eventUs: number;
  readonly alarmId: string;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly custom: string;
  readonly elarmServer: string;
  readonly rawSrc: string;
  readonly alarmType: unknown;
  readonly severity: string;
  readonly probableCause: string;
  readonly proposedRepairAction: string;
  readonly description: string;
  readonly additionalInformation: string;
  readonly correlatedEvents: string;
  readonly comments: readonly AlarmComment[];
  readonly trend: unknown;
  readonly threshold: unknown;
  readonly state: 'new' | 'acknowledged';
  readonly ackUser: string | null;
  readonly ackTime: number | null;
  readonly tags: readonly string[];
  readonly active: boolean;
}

/** What the monitoring code gives to raise (or update) an alarm; omitted fields get WombatOAM's defaults. */
export interface RaiseAlarmInput {
  readonly alarmId: string;
  readonly nodeId: string;
  /** Default: the stored node's name. */
  readonly nodeName?: string;
  /** The alarm source (`src.custom`); default `node_level`. */
  readonly custom?: string;
  /** Default `wombat`. */
  readonly elarmServer?: string;
  readonly alarmType?: unknown;
  /** Default `indeterminate`. */
  readonly severity?: string;
  readonly probableCause?: string;
  readonly proposedRepairAction?: string;
  readonly description?: string;
  /** Erlang-printed extra information, e.g. `<<"High memory">>`; default `[]` (an empty Erlang list). */
  readonly additionalInformation?: string;
  readonly correlatedEvents?: string;
  readonly trend?: unknown;
  readonly threshold?: unknown;
  /** Default `['dev', 'op']`. */
  readonly tags?: readonly string[];
}

/** Which alarms a list call wants. */
export interface AlarmQuery {
  /** Only alarms of these nodes (node or family calls); undefined = every node. */
  readonly nodeIds?: readonly string[];
  readonly source?: string;
  /** `'all'` or the tags of which an alarm must carry at least one. */
  readonly tags: 'all' | readonly string[];
  /** Only events strictly older than this instant (µs), for the `previous` calls. */
  readonly beforeUs?: number;
  readonly limit: number;
}

/**
 * An alarm as the alarm lists show it (the alarm presenter): stored beside the alarm so that the
 * lists read one column, and sent to live subscribers as it is.
 */
export type AlarmListForm = (alarm: AlarmRecord) => unknown;
