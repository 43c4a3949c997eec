import { atom, listElements, tupleOf, type Term } from '@triad/erlang-dist';
import type { MetricFamily, MetricSample } from './metrics-store.js';

/** One call of a kernel sample and the samples its result gives. */
export interface KernelReading {
  readonly module: string;
  readonly fn: string;
  readonly args: readonly Term[];
  /** @throws Error when the result has another shape. */
  samples(result: Term): MetricSample[];
}

function integer(term: Term | undefined, what: string): number {
  if (term?.type !== 'integer') throw new Error(`${what} is not an integer`);
  return Number(term.value);
}

/** `{A, B}` as two numbers. */
function pair(term: Term, what: string): [number, number] {
  const t = tupleOf(term, 2);
  return [integer(t?.[0], what), integer(t?.[1], what)];
}

function one(name: string, value: number): MetricSample[] {
  return [{ name, value }];
}

const statistics = (item: string, samples: (result: Term) => MetricSample[]): KernelReading => ({
  module: 'erlang',
  fn: 'statistics',
  args: [atom(item)],
  samples,
});

const systemInfo = (item: string, name: string): KernelReading => ({
  module: 'erlang',
  fn: 'system_info',
  args: [atom(item)],
  samples: (result) => one(name, integer(result, item)),
});

/** `erlang:memory()` in prometheus.erl's four memory families. */
function memorySamples(result: Term): MetricSample[] {
  const kinds = new Map<string, number>();
  for (const entry of listElements(result) ?? []) {
    const kv = tupleOf(entry, 2);
    if (kv?.[0]?.type === 'atom') kinds.set(kv[0].name, integer(kv[1], `memory ${kv[0].name}`));
  }
  const get = (kind: string) => {
    const value = kinds.get(kind);
    if (value === undefined) throw new Error(`erlang:memory() has no ${kind}`);
    return value;
  };
  const system = get('system');
  const [atomBytes, binary, code, ets] = [get('atom'), get('binary'), get('code'), get('ets')];
  const sample = (name: string, label: string, value: string, bytes: number): MetricSample => ({
    name,
    labels: { [label]: value },
    value: bytes,
  });
  return [
    sample('erlang_vm_memory_bytes_total', 'kind', 'processes', get('processes')),
    sample('erlang_vm_memory_bytes_total', 'kind', 'system', system),
    sample('erlang_vm_memory_processes_bytes_total', 'usage', 'used', get('processes_used')),
    sample('erlang_vm_memory_processes_bytes_total', 'usage', 'free', get('processes') - get('processes_used')),
    sample('erlang_vm_memory_atom_bytes_total', 'usage', 'used', get('atom_used')),
    sample('erlang_vm_memory_atom_bytes_total', 'usage', 'free', atomBytes - get('atom_used')),
    sample('erlang_vm_memory_system_bytes_total', 'usage', 'atom', atomBytes),
    sample('erlang_vm_memory_system_bytes_total', 'usage', 'binary', binary),
    sample('erlang_vm_memory_system_bytes_total', 'usage', 'code', code),
    sample('erlang_vm_memory_system_bytes_total', 'usage', 'ets', ets),
    sample('erlang_vm_memory_system_bytes_total', 'usage', 'other', system - atomBytes - binary - code - ets),
  ];
}

/**
 * What one kernel sample reads, in call order: the run queue first, before anything else of the
 * sample has run. Names and units are those of prometheus.erl's VM collectors (memory,
 * statistics, system_info), so BEAM dashboards work unchanged; `triad_node_uptime_seconds` is ours.
 */
export const KERNEL_READINGS: readonly KernelReading[] = Object.freeze([
  statistics('total_run_queue_lengths', (r) =>
    one('erlang_vm_statistics_run_queues_length_total', integer(r, 'total_run_queue_lengths')),
  ),
  { module: 'erlang', fn: 'memory', args: [], samples: memorySamples },
  statistics('reductions', (r) => one('erlang_vm_statistics_reductions_total', pair(r, 'reductions')[0])),
  statistics('wall_clock', (r) => {
    const ms = pair(r, 'wall_clock')[0];
    return [
      { name: 'erlang_vm_statistics_wallclock_time_milliseconds', value: ms },
      { name: 'triad_node_uptime_seconds', value: ms / 1000 },
    ];
  }),
  statistics('runtime', (r) => one('erlang_vm_statistics_runtime_milliseconds', pair(r, 'runtime')[0])),
  statistics('context_switches', (r) => one('erlang_vm_statistics_context_switches', pair(r, 'context_switches')[0])),
  statistics('io', (r) => {
    const io = tupleOf(r, 2);
    const input = tupleOf(io?.[0], 2)?.[1];
    const output = tupleOf(io?.[1], 2)?.[1];
    return [
      { name: 'erlang_vm_statistics_bytes_received_total', value: integer(input, 'io input') },
      { name: 'erlang_vm_statistics_bytes_output_total', value: integer(output, 'io output') },
    ];
  }),
  statistics('garbage_collection', (r) => {
    const gc = tupleOf(r, 3);
    return [
      { name: 'erlang_vm_statistics_garbage_collection_number_of_gcs', value: integer(gc?.[0], 'gcs') },
      { name: 'erlang_vm_statistics_garbage_collection_words_reclaimed', value: integer(gc?.[1], 'words') },
    ];
  }),
  systemInfo('process_count', 'erlang_vm_process_count'),
  systemInfo('process_limit', 'erlang_vm_process_limit'),
  systemInfo('port_count', 'erlang_vm_port_count'),
  systemInfo('port_limit', 'erlang_vm_port_limit'),
  systemInfo('atom_count', 'erlang_vm_atom_count'),
  systemInfo('atom_limit', 'erlang_vm_atom_limit'),
  systemInfo('ets_count', 'erlang_vm_ets_tables'),
  systemInfo('ets_limit', 'erlang_vm_ets_limit'),
  systemInfo('schedulers', 'erlang_vm_schedulers'),
  systemInfo('schedulers_online', 'erlang_vm_schedulers_online'),
]);

const gauge = (name: string, help: string): MetricFamily => ({ name, type: 'gauge', help });
const counter = (name: string, help: string): MetricFamily => ({ name, type: 'counter', help });

/** The families a kernel sample exports at `GET /metrics` (prometheus.erl's names, types and units). */
export const KERNEL_METRIC_FAMILIES: readonly MetricFamily[] = Object.freeze([
  gauge(
    'erlang_vm_statistics_run_queues_length_total',
    'Processes and ports ready to run on all run queues (statistics(total_run_queue_lengths)), ' +
      'read with no other call of the node manager in flight.',
  ),
  gauge('erlang_vm_memory_bytes_total', 'Memory allocated by the emulator, by kind (processes, system).'),
  gauge('erlang_vm_memory_processes_bytes_total', 'Memory allocated for processes, used and free.'),
  gauge('erlang_vm_memory_atom_bytes_total', 'Memory allocated for atoms, used and free.'),
  gauge('erlang_vm_memory_system_bytes_total', 'System memory by usage (atom, binary, code, ets, other).'),
  counter('erlang_vm_statistics_reductions_total', 'Reductions since the node started.'),
  counter('erlang_vm_statistics_wallclock_time_milliseconds', 'Wall clock time since the node started, ms.'),
  gauge('triad_node_uptime_seconds', 'Time since the node started, s (Triad; the wall clock time in seconds).'),
  counter('erlang_vm_statistics_runtime_milliseconds', 'Run time of all threads of the runtime system, ms.'),
  counter('erlang_vm_statistics_context_switches', 'Context switches since the node started.'),
  counter('erlang_vm_statistics_bytes_received_total', 'Bytes received through ports.'),
  counter('erlang_vm_statistics_bytes_output_total', 'Bytes output to ports.'),
  counter('erlang_vm_statistics_garbage_collection_number_of_gcs', 'Garbage collections since the node started.'),
  counter(
    'erlang_vm_statistics_garbage_collection_words_reclaimed',
    'Words reclaimed by garbage collection since the node started.',
  ),
  gauge('erlang_vm_process_count', 'Processes alive on the node.'),
  gauge('erlang_vm_process_limit', 'Most processes the node may hold at once.'),
  gauge('erlang_vm_port_count', 'Ports open on the node.'),
  gauge('erlang_vm_port_limit', 'Most ports the node may hold at once.'),
  gauge('erlang_vm_atom_count', 'Atoms in the atom table.'),
  gauge('erlang_vm_atom_limit', 'Most atoms the atom table may hold.'),
  gauge('erlang_vm_ets_tables', 'ETS tables on the node.'),
  gauge('erlang_vm_ets_limit', 'Most ETS tables the node may hold (advisory since OTP 20).'),
  gauge('erlang_vm_schedulers', 'Scheduler threads of the emulator.'),
  gauge('erlang_vm_schedulers_online', 'Schedulers online.'),
]);
