import { useCallback, useEffect, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import { Link } from '../../shell/link.js';
import { usePageTitle } from '../../shell/page-title.js';
import type { Subscribe } from './live-updates.js';
import { formatUptime, type FamilyWire, type NodeWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';
import { DownNodesNotice, NodeStateText } from './node-state.js';
import { ReachabilityCheck } from './reachability-check.js';

/**
 * Every node with its state (live), family, OTP release and uptime; add and remove nodes; the
 * reachability analysis of any node name.
 */
export function NodesPage(props: { readonly client: OperatorClient; readonly subscribe: Subscribe }) {
  usePageTitle('Nodes');
  const { client, subscribe } = props;
  const [nodes, setNodes] = useState<readonly NodeWire[] | undefined>();
  const [families, setFamilies] = useState<readonly FamilyWire[]>([]);
  const [message, setMessage] = useState<string | undefined>();
  const reload = useCallback(() => {
    Promise.all([client.get<NodeWire[]>('/api/topo/node'), client.get<FamilyWire[]>('/api/topo/node-family')])
      .then(([n, f]) => {
        setNodes(n);
        setFamilies(f);
      })
      .catch((error: unknown) => setMessage(String(error)));
  }, [client]);
  useEffect(reload, [reload]);
  useEffect(
    () =>
      subscribe((event) => {
        if (event.type === 'resync') reload();
        if (event.type !== 'node_state') return;
        if (event.deleted) setNodes((list) => list?.filter((n) => n.id !== event.nodeId));
        else if (nodes?.some((n) => n.id === event.nodeId) === false) reload();
        else setNodes((list) => list?.map((n) => (n.id === event.nodeId ? { ...n, state: event.state } : n)));
      }),
    [subscribe, reload, nodes],
  );
  const familyName = (id: string) => families.find((f) => f.id === id)?.name ?? id;
  const remove = (node: NodeWire) => {
    if (!confirm(`Remove ${node.name}?`)) return;
    client
      .delete(`/api/topo/node/${encodeURIComponent(node.id)}`)
      .then(() => {
        setMessage(`Removed ${node.name}.`);
        reload();
      })
      .catch((error: unknown) => setMessage(errorMessage(error)));
  };
  return (
    <>
      <h1>Nodes</h1>
      <AddNodeForm
        client={client}
        onAdded={(node) => {
          setMessage(`Added ${node.name}: ${node.state}.`);
          reload();
        }}
      />
      <p role="status">{message}</p>
      {nodes ? <DownNodesNotice nodes={nodes} link /> : null}
      {nodes === undefined ? (
        <p>Loading nodes…</p>
      ) : (
        <DataTable
          caption="Managed nodes"
          captionHidden
          rows={nodes}
          rowKey={(node) => node.id}
          empty="No nodes yet: add one above."
          columns={[
            {
              id: 'node',
              header: 'Node',
              rowHeader: true,
              sortValue: (node) => node.name,
              cell: (node) => <Link href={`/nodes/${encodeURIComponent(node.id)}`}>{node.name}</Link>,
            },
            {
              id: 'state',
              header: 'State',
              sortValue: (node) => node.state,
              cell: (node) => <NodeStateText state={node.state} />,
            },
            {
              id: 'family',
              header: 'Family',
              sortValue: (node) => familyName(node.node_family_id),
              cell: (node) => familyName(node.node_family_id),
            },
            {
              id: 'otp',
              header: 'OTP release',
              sortValue: (node) => node.otp_release,
              cell: (node) => node.otp_release ?? '—',
            },
            {
              id: 'uptime',
              header: 'Uptime',
              firstDirection: 'descending',
              sortValue: (node) => (node.state === 'UP' ? node.uptime_ms : null),
              cell: (node) => (node.state === 'UP' ? formatUptime(node.uptime_ms) : '—'),
            },
            {
              id: 'actions',
              header: 'Actions',
              cell: (node) => (
                <button type="button" onClick={() => remove(node)} aria-label={`Remove ${node.name}`}>
                  Remove
                </button>
              ),
            },
          ]}
        />
      )}
      <ReachabilityCheck client={client} />
    </>
  );
}

function AddNodeForm(props: { readonly client: OperatorClient; readonly onAdded: (node: NodeWire) => void }) {
  const [name, setName] = useState('');
  const [cookie, setCookie] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: Event) => {
    event.preventDefault();
    setError(undefined);
    props.client
      .post<NodeWire>('/api/topo/action/add-node', { name, cookie })
      .then((node) => {
        setName('');
        setCookie('');
        props.onAdded(node);
      })
      .catch((reason: unknown) => setError(errorMessage(reason)));
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Add a node">
      <label>
        Node name
        <input required placeholder="name@host" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Cookie
        <input required type="password" value={cookie} onInput={(e) => setCookie(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary">
        Add node
      </button>
      <ErrorAlert message={error} />
    </form>
  );
}
