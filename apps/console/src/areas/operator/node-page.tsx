import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import { Link } from '../../shell/link.js';
import { usePageTitle } from '../../shell/page-title.js';
import { MetricChart } from './metric-chart.js';
import { rangeBounds } from '../../shell/history-range.js';
import { RangePicker } from '../../shell/range-picker.js';
import { chartSeriesNames, formatBytes, NODE_CHARTS, NODE_RANGES } from './node-history.js';
import { FamilyMoveForm } from './family-move-form.js';
import type { Subscribe } from './live-updates.js';
import { DownNodesNotice, NodeStateText } from './node-state.js';
import { NodeActivity } from './node-activity.js';
import { NodeExplorer } from './node-explorer.js';
import { NodePlugins } from './node-plugins.js';
import { formatUptime, type FamilyWire, type NodeInfoWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';
import { ReachabilityCheck } from './reachability-check.js';
import './node-page.css';

/**
 * One node (`/nodes/<id>`): its facts and applications, its metric history as charts over 1 h,
 * 24 h or 30 d, its active alarms, its latest logs, a look inside it (top processes, ETS tables)
 * and its plugins with on/off switches; a move
 * to another family and the reachability analysis of its name. A state
 * frame for the node re-reads its facts (they change with the state); alarms and logs follow
 * their own frames (`NodeActivity`).
 */
export function NodePage(props: {
  readonly client: OperatorClient;
  readonly nodeId: string;
  readonly subscribe: Subscribe;
}) {
  const { client, nodeId, subscribe } = props;
  const [info, setInfo] = useState<NodeInfoWire | undefined>();
  const [family, setFamily] = useState<string | undefined>();
  const [names, setNames] = useState<readonly string[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [rangeId, setRangeId] = useState(NODE_RANGES[0]?.id ?? '1h');
  const [now, setNow] = useState(() => Date.now());
  usePageTitle(info ? info.node.name : 'Node');
  const id = encodeURIComponent(nodeId);
  const loadInfo = useCallback(() => {
    client
      .get<NodeInfoWire>(`/api/topo/node/${id}/info`)
      .then(async (reply) => {
        setInfo(reply);
        const f = await client.get<FamilyWire>(
          `/api/topo/node-family/${encodeURIComponent(reply.node.node_family_id)}`,
        );
        setFamily(f.name);
      })
      .catch((reason: unknown) => setError(errorMessage(reason)));
  }, [client, id]);
  useEffect(() => {
    setError(undefined);
    loadInfo();
    client
      .get<{ names: string[] }>('/api/metrics/names')
      .then((reply) => setNames(reply.names))
      .catch((reason: unknown) => setError(errorMessage(reason)));
  }, [client, loadInfo]);
  useEffect(
    () =>
      subscribe((event) => {
        if (event.type === 'resync') loadInfo();
        if (event.type !== 'node_state' || event.nodeId !== nodeId) return;
        if (event.deleted) {
          setError('This node was removed.');
          return;
        }
        // The state shows at once; the facts that change with it follow from the re-read.
        setInfo((known) => known && { ...known, node: { ...known.node, state: event.state } });
        loadInfo();
      }),
    [subscribe, nodeId, loadInfo],
  );
  const range = NODE_RANGES.find((r) => r.id === rangeId) ?? NODE_RANGES[0];
  const bounds = useMemo(() => (range ? rangeBounds(range, now) : { from: now, to: now }), [range, now]);
  const charts = useMemo(
    () => NODE_CHARTS.map((chart) => ({ chart, names: chartSeriesNames(chart, names ?? []) })),
    [names],
  );
  const node = info?.node;
  return (
    <>
      <p class="breadcrumb">
        <Link href="/nodes">Nodes</Link> /
      </p>
      <h1>{node ? node.name : 'Node'}</h1>
      <ErrorAlert message={error} />
      {node ? <DownNodesNotice nodes={[node]} /> : null}
      <section aria-labelledby="node-facts">
        <h2 id="node-facts">Facts</h2>
        {node === undefined ? (
          <p>Loading…</p>
        ) : (
          <dl class="facts">
            <Fact term="State" value={<NodeStateText state={node.state} />} />
            <Fact term="Family" value={family ?? node.node_family_id} />
            <Fact term="OTP release" value={node.otp_release ?? '—'} />
            <Fact term="ERTS version" value={node.erts_version ?? '—'} />
            <Fact term="Uptime" value={formatUptime(node.uptime_ms)} />
            <Fact
              term="Processes"
              value={node.process_count === null ? '—' : node.process_count.toLocaleString('en')}
            />
            <Fact term="Total memory" value={node.total_memory === null ? '—' : formatBytes(node.total_memory)} />
          </dl>
        )}
        {node ? (
          <FamilyMoveForm
            client={client}
            nodeId={nodeId}
            nodeName={node.name}
            familyId={node.node_family_id}
            onMoved={loadInfo}
          />
        ) : null}
        {info && info.applications.length > 0 ? (
          <DataTable
            caption="Applications"
            rows={info.applications}
            rowKey={(app) => app.name}
            columns={[
              {
                id: 'name',
                header: 'Application',
                rowHeader: true,
                sortValue: (app) => app.name,
                cell: (app) => app.name,
              },
              { id: 'version', header: 'Version', sortValue: (app) => app.version, cell: (app) => app.version },
              { id: 'description', header: 'Description', cell: (app) => app.description },
            ]}
          />
        ) : info ? (
          <p>No applications known (the node is not UP or not read yet).</p>
        ) : null}
      </section>
      <section aria-labelledby="node-metrics">
        <h2 id="node-metrics">Metrics</h2>
        <RangePicker
          ranges={NODE_RANGES}
          chosen={rangeId}
          onChoose={(id) => {
            setRangeId(id);
            setNow(Date.now());
          }}
        />
        {names === undefined ? (
          <p>Loading…</p>
        ) : (
          <div class="charts">
            {charts.map(({ chart, names: series }) =>
              series.length === 0 ? (
                <p key={chart.id}>{chart.title}: never sampled on any node.</p>
              ) : (
                <MetricChart
                  key={chart.id}
                  client={client}
                  nodeId={nodeId}
                  chart={chart}
                  names={series}
                  from={bounds.from}
                  to={bounds.to}
                />
              ),
            )}
          </div>
        )}
      </section>
      <NodeActivity client={client} nodeId={nodeId} subscribe={subscribe} />
      {node ? <NodeExplorer client={client} nodeId={nodeId} up={node.state === 'UP'} /> : null}
      {node ? <ReachabilityCheck key={node.name} client={client} name={node.name} /> : null}
      <NodePlugins client={client} nodeId={nodeId} />
    </>
  );
}

function Fact(props: { readonly term: string; readonly value: ComponentChildren }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}
