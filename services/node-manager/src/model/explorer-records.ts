/** What the explorer reads of a node's processes and ETS tables (`GET /api/explorer/...`). */

/** The orders of `GET /api/explorer/node/{node_id}/processes`: the `process_info/2` items of those names. */
export const PROCESS_SORT_KEYS = ['memory', 'reductions', 'message_queue_len'] as const;
export type ProcessSortKey = (typeof PROCESS_SORT_KEYS)[number];

/** Processes listed when no `limit` is given, and the most a caller may ask for. */
export const DEFAULT_PROCESS_LIMIT = 20;
export const MAX_PROCESS_LIMIT = 200;
/** ETS tables listed when no `limit` is given, and the most a caller may ask for. */
export const DEFAULT_ETS_LIMIT = 100;
export const MAX_ETS_LIMIT = 1000;
/** Links, monitors and monitoring processes listed of one process (the counts are always whole). */
export const MAX_PROCESS_RELATIONS = 100;

/** One process of a top list. Pids of the node print as `<0.N.S>`. */
export interface ProcessSummary {
  readonly pid: string;
  /** The registered name; null for an unregistered process. */
  readonly registeredName: string | null;
  /** `module:function/arity`; null when the node cannot tell (native code). */
  readonly currentFunction: string | null;
  /** `module:function/arity` the process started in (proc_lib's own start function translated). */
  readonly initialCall: string | null;
  /** Bytes, as `process_info(Pid, memory)`. */
  readonly memory: number;
  readonly reductions: number;
  readonly messageQueueLen: number;
}

/** A top list: the node's process count and the first processes in the asked order. */
export interface ProcessSample {
  readonly processCount: number;
  readonly processes: readonly ProcessSummary[];
}

/** A count and the first `MAX_PROCESS_RELATIONS` members of a list. */
export interface CountedList {
  readonly count: number;
  readonly items: readonly string[];
}

/** One process in detail. Sizes in words are the VM's (`heap_size` ...); `memory` is bytes. */
export interface ProcessDetails extends ProcessSummary {
  readonly status: string;
  readonly links: CountedList;
  readonly monitors: CountedList;
  readonly monitoredBy: CountedList;
  readonly trapExit: boolean;
  readonly priority: string;
  readonly groupLeader: string;
  readonly heapSize: number;
  readonly totalHeapSize: number;
  readonly stackSize: number;
  /** `module:function/arity (file:line)` per frame, innermost first. */
  readonly currentStacktrace: readonly string[];
}

/** One ETS table. */
export interface EtsTableInfo {
  /** The table's name (an atom's text; unnamed tables have one too). */
  readonly name: string;
  /** The table identifier as the node prints it (`#Ref<0.…>`). */
  readonly id: string;
  readonly owner: string;
  /** The owner's registered name; null when it has none. */
  readonly ownerName: string | null;
  readonly type: string;
  /** Objects in the table. */
  readonly size: number;
  /** Bytes (the node's words times its word size). */
  readonly memory: number;
  readonly protection: string;
}

/** The node's table count and its largest tables by memory. */
export interface EtsSample {
  readonly tableCount: number;
  readonly tables: readonly EtsTableInfo[];
}

const PID_TEXT = /^<0\.(0|[1-9][0-9]{0,9})\.(0|[1-9][0-9]{0,9})>$/;

/**
 * Whether `text` is a pid of the node itself in the form the node prints it, `<0.123.0>`: two
 * decimal numbers without leading zeros or signs, nothing else. The explorer passes only such
 * text to the node (bound to a variable, never spliced into code).
 */
export function isLocalPidText(text: string): boolean {
  return PID_TEXT.test(text);
}
