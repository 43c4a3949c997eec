import type { AlarmWire, NodeLogWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';

/**
 * A message the node manager pushes over `/api/core/ws` (docs/reference/node-management-api.md):
 * an alarm change with the alarm as the lists show it, a node's new state, a node's new log entry.
 */
export type LiveEvent =
  | { readonly type: 'authenticated'; readonly user: string }
  | { readonly type: 'alarm'; readonly action: string; readonly alarm: AlarmWire }
  | { readonly type: 'node_state'; readonly nodeId: string; readonly state: string; readonly deleted: boolean }
  | { readonly type: 'log'; readonly nodeId: string; readonly log: NodeLogWire }
  /** Not a frame: the socket authenticated again after a drop, and frames may have been missed meanwhile. */
  | { readonly type: 'resync' };

/** Subscribes a listener to the live events; returns its removal. */
export type Subscribe = (listener: (event: LiveEvent) => void) => () => void;

/**
 * Opens the live-update WebSocket: fetches a pass (`GET /api/users/pass`), sends the auth frame,
 * hands every later message to `onEvent`, and reconnects after 1 s when the socket closes. Each
 * authentication after the first is followed by a `resync` event: what the frames would have said
 * while the socket was down must be read again. Returns the function that closes it for good.
 */
export function connectLiveUpdates(
  client: OperatorClient,
  username: string,
  onEvent: (event: LiveEvent) => void,
): () => void {
  let socket: WebSocket | undefined;
  let stopped = false;
  let authenticated = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const open = async () => {
    const pass = await client.get<string>('/api/users/pass');
    if (stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}/api/core/ws`);
    socket.addEventListener('open', () => socket?.send(`auth=${username};websocket_pass=${pass}`));
    socket.addEventListener('message', (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as LiveEvent;
      onEvent(event);
      if (event.type !== 'authenticated') return;
      if (authenticated) onEvent({ type: 'resync' });
      authenticated = true;
    });
    socket.addEventListener('close', () => {
      if (!stopped) retry = setTimeout(() => void open().catch(() => undefined), 1000);
    });
  };
  void open().catch(() => {
    if (!stopped) retry = setTimeout(() => void open().catch(() => undefined), 1000);
  });
  return () => {
    stopped = true;
    clearTimeout(retry);
    socket?.close();
  };
}
