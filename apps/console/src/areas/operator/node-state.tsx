import { Link } from '../../shell/link.js';

const ICONS: Readonly<Record<string, string>> = { UP: '●', DOWN: '✕', STOPPED: '■' };

/**
 * A node's state as a word with an icon in its colour (`state-UP` green, `state-DOWN` red,
 * `state-STOPPED` muted): DOWN is a node lost without a stop asked for, STOPPED one that has not
 * run since it was added (docs/decisions/0038).
 */
export function NodeStateText(props: { readonly state: string }) {
  const { state } = props;
  return (
    <span class={`node-state state-${state}`}>
      <span aria-hidden="true">{ICONS[state] ?? '?'}</span> {state}
    </span>
  );
}

/**
 * The notice over a list or page holding DOWN nodes: which are down, what it means and what to
 * do. Nothing when none is down. With `link`, each name opens the node's page.
 */
export function DownNodesNotice(props: {
  readonly nodes: readonly { readonly id: string; readonly name: string; readonly state: string }[];
  readonly link?: boolean;
}) {
  const down = props.nodes.filter((n) => n.state === 'DOWN');
  if (down.length === 0) return null;
  return (
    <div class="error notice-down" role="alert">
      <p>
        <strong>
          <span aria-hidden="true">✕ </span>
          {down.length === 1 ? '1 node is down' : `${down.length} nodes are down`}:{' '}
        </strong>
        {down.map((n, i) => (
          <span key={n.id}>
            {i > 0 ? ', ' : ''}
            {props.link ? <Link href={`/nodes/${encodeURIComponent(n.id)}`}>{n.name}</Link> : n.name}
          </span>
        ))}
        .
      </p>
      <p>
        The node manager cannot reach {down.length === 1 ? 'it' : 'them'}, and nobody stopped{' '}
        {down.length === 1 ? 'it' : 'them'} here: a crash, a lost host or network, or a changed cookie. Start the node
        again or check its host; remove the node if it is gone for good.
      </p>
    </div>
  );
}
