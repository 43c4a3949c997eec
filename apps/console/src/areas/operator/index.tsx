import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AreaProps } from '../../shell/area-props.js';
import { HttpError } from '../../shell/http-error.js';
import { Link } from '../../shell/link.js';
import { usePageTitle } from '../../shell/page-title.js';
import { SignInForm } from '../../shell/sign-in-form.js';
import { AlarmsPage } from './alarms-page.js';
import { connectLiveUpdates, type LiveEvent } from './live-updates.js';
import { NodePage } from './node-page.js';
import { nodePageId } from './node-route.js';
import { NodesPage } from './nodes-page.js';
import { NotificationsPage } from './notifications-page.js';
import { OperatorClient, type Credentials } from './operator-client.js';
import { useNewAlarmCount } from './use-new-alarm-count.js';
import { sessionKeep } from '../../shell/session-keep.js';
import { UsersPage } from './users-page.js';
import './operator-look.css';

type Session =
  | { readonly kind: 'checking' }
  | { readonly kind: 'signed-out' }
  | { readonly kind: 'signed-in'; readonly client: OperatorClient; readonly username: string; readonly auth: boolean };

/**
 * The operator area (node manager): sign-in when authentication is on (HTTP Basic, credentials
 * kept for the browser session only: `sessionStorage`), then Nodes (`/`, `/nodes`), a node's page
 * (`/nodes/<id>`) and Alarms (`/alarms`), updated live over the WebSocket; for the admin role also
 * Admin (`/users`: users and roles; `/admin` itself is a path every service keeps for its own) and
 * Notifications (`/notifications`: channels, the admin's subscriptions, the delivery log).
 */
export default function OperatorArea({ path, config, navigate }: AreaProps) {
  const authentication = config.settings.authentication !== false;
  const [session, setSession] = useState<Session>(() =>
    authentication && KEPT.read() === undefined ? { kind: 'signed-out' } : { kind: 'checking' },
  );
  useEffect(() => {
    // Without authentication: no credentials. With it: the ones kept for this browser session, if
    // they still work (a changed password or a removed user signs out).
    const kept = authentication ? KEPT.read() : undefined;
    if (authentication && kept === undefined) return;
    const client = new OperatorClient(kept);
    client
      .get<string>('/api/users/username')
      .then((username) => setSession({ kind: 'signed-in', client, username, auth: authentication }))
      .catch(() => {
        KEPT.clear();
        setSession({ kind: 'signed-out' });
      });
  }, [authentication]);
  if (session.kind === 'checking') return <p aria-live="polite">Connecting to the node manager…</p>;
  if (session.kind === 'signed-out') {
    return (
      <SignInPage
        onSignedIn={(client, username) => {
          if (client.credentials) KEPT.write(client.credentials);
          setSession({ kind: 'signed-in', client, username, auth: true });
        }}
      />
    );
  }
  return (
    <SignedIn
      path={path}
      navigate={navigate}
      session={session}
      onSignOut={() => {
        KEPT.clear();
        setSession({ kind: 'signed-out' });
      }}
    />
  );
}

/**
 * The credentials kept for the browser session (`sessionStorage`), so that the other services'
 * consoles and a reload keep the operator signed in; "Sign out" and closing the tab forget them.
 */
const KEPT = sessionKeep<Credentials>(
  'operator.credentials',
  (value): value is Credentials =>
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'username') === 'string' &&
    typeof Reflect.get(value, 'password') === 'string',
);

function SignInPage(props: { readonly onSignedIn: (client: OperatorClient, username: string) => void }) {
  usePageTitle('Sign in');
  return (
    <SignInForm
      heading="Sign in to the node manager"
      nameLabel="Username"
      secretLabel="Password"
      onSubmit={async (username, password) => {
        const client = new OperatorClient({ username, password });
        try {
          props.onSignedIn(client, await client.get<string>('/api/users/username'));
        } catch (error) {
          if (error instanceof HttpError && error.status === 401) throw new Error('Wrong username or password.');
          throw error;
        }
      }}
    />
  );
}

function SignedIn(props: {
  readonly path: string;
  readonly navigate: (path: string) => void;
  readonly session: Extract<Session, { kind: 'signed-in' }>;
  readonly onSignOut: () => void;
}) {
  const { client, username, auth } = props.session;
  const listeners = useRef(new Set<(event: LiveEvent) => void>());
  const subscribe = useCallback((listener: (event: LiveEvent) => void) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  useEffect(
    () => connectLiveUpdates(client, username, (event) => listeners.current.forEach((l) => l(event))),
    [client, username],
  );
  // Only the admin role sees Admin; the API answers `is_admin` false when authentication is off.
  const [admin, setAdmin] = useState<boolean | undefined>();
  useEffect(() => {
    let live = true;
    const settle = (answer: boolean) => {
      if (live) setAdmin(answer);
    };
    client
      .get<boolean>('/api/users/is_admin')
      .then((answer) => settle(answer === true))
      .catch(() => settle(false));
    return () => {
      live = false;
    };
  }, [client]);
  // The alarm actions need the write right: without it they are not offered. Authentication off: every right.
  const [canWrite, setCanWrite] = useState<boolean | undefined>(auth ? undefined : true);
  useEffect(() => {
    if (!auth) return;
    let live = true;
    client
      .get<string[]>(`/api/users/rights/${encodeURIComponent(username)}`)
      .then((rights) => live && setCanWrite(rights.includes('write')))
      .catch(() => live && setCanWrite(false));
    return () => {
      live = false;
    };
  }, [client, username, auth]);
  const newAlarms = useNewAlarmCount(client, subscribe);
  const page = useMemo(
    () =>
      props.path.startsWith('/alarms')
        ? 'alarms'
        : props.path.startsWith('/users')
          ? 'users'
          : props.path.startsWith('/notifications')
            ? 'notifications'
            : 'nodes',
    [props.path],
  );
  const nodeId = useMemo(() => nodePageId(props.path), [props.path]);
  return (
    <>
      <div class="toolbar subnav">
        <nav aria-label="Operator">
          <ul>
            <li>
              <Link href="/nodes" current={page === 'nodes' && nodeId === undefined}>
                Nodes
              </Link>
            </li>
            <li>
              <Link href="/alarms" current={page === 'alarms'}>
                Alarms
                {newAlarms && newAlarms.count > 0 ? (
                  <span class="count-badge">
                    {' '}
                    {newAlarms.count}
                    {newAlarms.more ? '+' : ''} new
                  </span>
                ) : null}
              </Link>
            </li>
            {admin ? (
              <li>
                <Link href="/users" current={page === 'users'}>
                  Admin
                </Link>
              </li>
            ) : null}
            {admin ? (
              <li>
                <Link href="/notifications" current={page === 'notifications'}>
                  Notifications
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
        {auth ? (
          <p>
            Signed in as {username}{' '}
            <button type="button" onClick={props.onSignOut}>
              Sign out
            </button>
          </p>
        ) : (
          <p>Authentication is off</p>
        )}
      </div>
      {page === 'alarms' ? (
        <AlarmsPage
          client={client}
          username={username}
          subscribe={subscribe}
          path={props.path}
          navigate={props.navigate}
          canWrite={canWrite}
        />
      ) : page === 'notifications' ? (
        admin === undefined ? (
          <p aria-live="polite">Checking your role…</p>
        ) : admin ? (
          <NotificationsPage client={client} username={username} />
        ) : (
          <p>The Notifications page is for the admin role.</p>
        )
      ) : page === 'users' ? (
        admin === undefined ? (
          <p aria-live="polite">Checking your role…</p>
        ) : admin ? (
          <UsersPage client={client} username={username} />
        ) : (
          <p>The Admin page is for the admin role.</p>
        )
      ) : nodeId !== undefined ? (
        <NodePage key={nodeId} client={client} nodeId={nodeId} subscribe={subscribe} />
      ) : (
        <NodesPage client={client} subscribe={subscribe} />
      )}
    </>
  );
}
