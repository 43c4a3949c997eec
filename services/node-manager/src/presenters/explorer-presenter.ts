import type {
  CountedList,
  EtsSample,
  ProcessDetails,
  ProcessSample,
  ProcessSortKey,
  ProcessSummary,
} from '../model/explorer-records.js';

function presentSummary(p: ProcessSummary) {
  return {
    pid: p.pid,
    registered_name: p.registeredName,
    current_function: p.currentFunction,
    initial_call: p.initialCall,
    memory: p.memory,
    reductions: p.reductions,
    message_queue_len: p.messageQueueLen,
  };
}

function presentCounted(list: CountedList) {
  return { count: list.count, items: [...list.items] };
}

/** Every field of a top list. */
export function presentTopProcesses(nodeId: string, sort: ProcessSortKey, sample: ProcessSample) {
  return {
    node_id: nodeId,
    sort,
    process_count: sample.processCount,
    processes: sample.processes.map(presentSummary),
  };
}

/** Every field of one process. */
export function presentProcessDetails(nodeId: string, p: ProcessDetails) {
  return {
    node_id: nodeId,
    ...presentSummary(p),
    status: p.status,
    links: presentCounted(p.links),
    monitors: presentCounted(p.monitors),
    monitored_by: presentCounted(p.monitoredBy),
    trap_exit: p.trapExit,
    priority: p.priority,
    group_leader: p.groupLeader,
    heap_size: p.heapSize,
    total_heap_size: p.totalHeapSize,
    stack_size: p.stackSize,
    current_stacktrace: [...p.currentStacktrace],
  };
}

/** Every field of an ETS list. */
export function presentEtsTables(nodeId: string, sample: EtsSample) {
  return {
    node_id: nodeId,
    table_count: sample.tableCount,
    tables: sample.tables.map((t) => ({
      name: t.name,
      id: t.id,
      owner: t.owner,
      owner_name: t.ownerName,
      type: t.type,
      size: t.size,
      memory: t.memory,
      protection: t.protection,
    })),
  };
}

/** `GET /api/explorer/node/{node_id}/processes` as a client sees it. */
export type TopProcessesReply = ReturnType<typeof presentTopProcesses>;
/** `GET /api/explorer/node/{node_id}/processes/{pid}` as a client sees it. */
export type ProcessDetailsReply = ReturnType<typeof presentProcessDetails>;
/** `GET /api/explorer/node/{node_id}/ets` as a client sees it. */
export type EtsTablesReply = ReturnType<typeof presentEtsTables>;
