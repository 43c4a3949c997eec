import { useCallback, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import {
  PROCESS_SORTS,
  processLabel,
  processPath,
  topProcessesPath,
  type EtsTablesWire,
  type ProcessDetailsWire,
  type ProcessSort,
  type ProcessSummaryWire,
  type TopProcessesWire,
} from './explorer-wire.js';
import { formatBytes } from './node-history.js';
import type { OperatorClient } from './operator-client.js';

/** How many processes a read asks for. */
const TOP_LIMIT = 20;

const count = (n: number) => n.toLocaleString('en');
const num = () => 'num';
const readAt = () => new Date().toLocaleTimeString('en-GB');

/**
 * Inside a node (`/api/explorer/...`, decision 0041): its top processes by memory, reductions or
 * message queue, one process in detail, and its largest ETS tables. Each read runs once on the
 * node when the operator asks (never on a timer: a read costs the node a little) and changes
 * nothing there. Only an UP node can be read.
 */
export function NodeExplorer(props: {
  readonly client: OperatorClient;
  readonly nodeId: string;
  readonly up: boolean;
}) {
  const { client, nodeId, up } = props;
  const [sort, setSort] = useState<ProcessSort>('memory');
  const [top, setTop] = useState<{ reply: TopProcessesWire; at: string } | undefined>();
  const [details, setDetails] = useState<ProcessDetailsWire | undefined>();
  const [ets, setEts] = useState<{ reply: EtsTablesWire; at: string } | undefined>();
  const [busy, setBusy] = useState<'processes' | 'process' | 'ets' | undefined>();
  const [error, setError] = useState<string | undefined>();

  const run = useCallback(
    <T,>(what: 'processes' | 'process' | 'ets', path: string, done: (reply: T) => void) => {
      setBusy(what);
      setError(undefined);
      client
        .get<T>(path)
        .then(done)
        .catch((reason: unknown) => setError(errorMessage(reason)))
        .finally(() => setBusy(undefined));
    },
    [client],
  );
  const readProcesses = () =>
    run<TopProcessesWire>('processes', topProcessesPath(nodeId, sort, TOP_LIMIT), (reply) => {
      setTop({ reply, at: readAt() });
      setDetails(undefined);
    });
  const readProcess = (process: ProcessSummaryWire) =>
    run<ProcessDetailsWire>('process', processPath(nodeId, process.pid), setDetails);
  const readEts = () =>
    run<EtsTablesWire>('ets', `/api/explorer/node/${encodeURIComponent(nodeId)}/ets`, (reply) =>
      setEts({ reply, at: readAt() }),
    );
  const sortLabel = PROCESS_SORTS.find((s) => s.id === (top?.reply.sort ?? sort))?.label.toLowerCase();

  return (
    <section aria-labelledby="node-explorer" class="node-explorer">
      <h2 id="node-explorer">Inside the node</h2>
      <p class="muted">
        {up
          ? 'Each read runs once on the node when you ask; nothing changes there.'
          : 'The node is not UP: there is nothing to read.'}
      </p>
      <ErrorAlert message={error} />
      <form
        class="explorer-controls"
        onSubmit={(event) => {
          event.preventDefault();
          readProcesses();
        }}
      >
        <label>
          Order
          <select value={sort} onChange={(e) => setSort(e.currentTarget.value as ProcessSort)}>
            {PROCESS_SORTS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={!up || busy !== undefined}>
          {busy === 'processes' ? 'Reading…' : 'Read top processes'}
        </button>
        <button type="button" disabled={!up || busy !== undefined} onClick={readEts}>
          {busy === 'ets' ? 'Reading…' : 'Read ETS tables'}
        </button>
      </form>
      <p role="status" class="explorer-status">
        {top
          ? `${count(top.reply.processes.length)} of ${count(top.reply.process_count)} processes, ` +
            `by ${sortLabel ?? 'memory'}, read at ${top.at}.`
          : ''}
        {ets
          ? ` ${count(ets.reply.tables.length)} of ${count(ets.reply.table_count)} ETS tables, read at ${ets.at}.`
          : ''}
      </p>
      {top ? (
        <DataTable
          caption={`Top processes by ${sortLabel ?? 'memory'}`}
          rows={top.reply.processes}
          rowKey={(p) => p.pid}
          empty={<p>No processes.</p>}
          columns={[
            {
              id: 'process',
              header: 'Process',
              rowHeader: true,
              sortValue: (p) => processLabel(p),
              cell: (p) => (
                <button
                  type="button"
                  class="link-button"
                  aria-label={`Details of ${processLabel(p)}`}
                  aria-expanded={details?.pid === p.pid}
                  disabled={busy !== undefined}
                  onClick={() => readProcess(p)}
                >
                  {processLabel(p)}
                </button>
              ),
            },
            {
              id: 'memory',
              header: 'Memory',
              cellClass: num,
              sortValue: (p) => p.memory,
              cell: (p) => formatBytes(p.memory),
            },
            {
              id: 'reductions',
              header: 'Reductions',
              cellClass: num,
              sortValue: (p) => p.reductions,
              cell: (p) => count(p.reductions),
            },
            {
              id: 'queue',
              header: 'Queue',
              cellClass: num,
              sortValue: (p) => p.message_queue_len,
              cell: (p) => count(p.message_queue_len),
            },
            { id: 'current', header: 'Current function', cell: (p) => <code>{p.current_function ?? '—'}</code> },
            { id: 'initial', header: 'Initial call', cell: (p) => <code>{p.initial_call ?? '—'}</code> },
          ]}
        />
      ) : null}
      {details ? <ProcessDetails process={details} onClose={() => setDetails(undefined)} /> : null}
      {ets ? (
        <DataTable
          caption="ETS tables, largest first"
          rows={ets.reply.tables}
          rowKey={(t) => t.id}
          empty={<p>No ETS tables.</p>}
          columns={[
            { id: 'name', header: 'Table', rowHeader: true, sortValue: (t) => t.name, cell: (t) => t.name },
            {
              id: 'owner',
              header: 'Owner',
              sortValue: (t) => t.owner_name ?? t.owner,
              cell: (t) => t.owner_name ?? t.owner,
            },
            { id: 'type', header: 'Type', cell: (t) => t.type },
            { id: 'size', header: 'Objects', cellClass: num, sortValue: (t) => t.size, cell: (t) => count(t.size) },
            {
              id: 'memory',
              header: 'Memory',
              cellClass: num,
              sortValue: (t) => t.memory,
              cell: (t) => formatBytes(t.memory),
            },
            { id: 'protection', header: 'Access', cell: (t) => t.protection },
          ]}
        />
      ) : null}
    </section>
  );
}

/** One process read in detail, under the top list. */
function ProcessDetails(props: { readonly process: ProcessDetailsWire; readonly onClose: () => void }) {
  const p = props.process;
  const words = (n: number) => `${count(n)} words`;
  return (
    <section aria-labelledby="process-details" class="process-details">
      <h3 id="process-details">
        {processLabel(p)} {p.registered_name ? <span class="muted">{p.pid}</span> : null}
      </h3>
      <dl class="facts">
        <Fact term="Status" value={p.status} />
        <Fact term="Memory" value={formatBytes(p.memory)} />
        <Fact term="Message queue" value={count(p.message_queue_len)} />
        <Fact term="Reductions" value={count(p.reductions)} />
        <Fact term="Heap" value={words(p.heap_size)} />
        <Fact term="Total heap" value={words(p.total_heap_size)} />
        <Fact term="Stack" value={words(p.stack_size)} />
        <Fact term="Priority" value={p.priority} />
        <Fact term="Traps exits" value={p.trap_exit ? 'yes' : 'no'} />
        <Fact term="Group leader" value={p.group_leader} />
        <Fact term="Links" value={related(p.links)} />
        <Fact term="Monitors" value={related(p.monitors)} />
        <Fact term="Monitored by" value={related(p.monitored_by)} />
        <Fact term="Initial call" value={p.initial_call ?? '—'} />
      </dl>
      <h4>Stack trace</h4>
      {p.current_stacktrace.length === 0 ? (
        <p>Empty.</p>
      ) : (
        <ol class="stacktrace">
          {p.current_stacktrace.map((frame, index) => (
            <li key={index}>
              <code>{frame}</code>
            </li>
          ))}
        </ol>
      )}
      <button type="button" onClick={props.onClose}>
        Close details
      </button>
    </section>
  );
}

function related(list: { readonly count: number; readonly items: readonly string[] }): string {
  if (list.count === 0) return 'none';
  const shown = list.items.join(', ');
  return list.count > list.items.length ? `${shown} and ${count(list.count - list.items.length)} more` : shown;
}

function Fact(props: { readonly term: string; readonly value: string }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}
