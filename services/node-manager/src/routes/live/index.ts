// The 'hide' member of route schemas comes from @fastify/swagger's augmentation of FastifySchema.
import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { md5WsPassMatches } from '../../auth/md5-ws-pass.js';
import { sessionStamp } from '../../auth/session-stamp.js';
import type { UserRecord } from '../../model/user-record.js';
import type { NodeManagerEvent } from '../../events/node-manager-events.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { liveSchema } from './schemas.js';

/**
 * Close code sent when the first message does not authenticate, and when an open socket's user
 * changes (password, role, rights, tags) or is deleted: the client fetches a new pass and signs in again.
 */
export const WS_CLOSE_UNAUTHORIZED = 4401;

/** The structural part of a WebSocket this route uses. */
interface LiveSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: Buffer | string) => void): void;
  on(event: 'close', listener: () => void): void;
}

/**
 * `GET /api/core/ws` (WebSocket). The client's first text frame is
 * `auth=<username>;websocket_pass=<pass>` with a pass from `GET /api/users/pass`; the server
 * answers `{"type":"authenticated","user":...}` and then pushes every alarm change
 * (`{"type":"alarm","action":...,"alarm":{...}}`) and collected log entry (`{"type":"log",...}`),
 * both filtered by the user's tags, and node state change (`{"type":"node_state",...}`). A wrong
 * first frame, or none within `wsAuthTimeoutMs`, closes the socket with 4401. So does a change of
 * the user (password, role, rights, tags) or their deletion: at once when made through any
 * instance, within `wsSessionRecheckMs` when made by another process (the `triad users` CLI).
 * Needs `@fastify/websocket` registered on an enclosing context (app.ts does it at the root).
 */
export function liveRoutes(
  app: FastifyInstance,
  { core }: { core: NodeManagerCore },
  done: (error?: Error) => void,
): void {
  // @fastify/websocket hides its routes from OpenAPI; this one is documented (upgrade, 101).
  app.addHook('onRoute', (route) => {
    if (route.websocket && route.schema) route.schema.hide = false;
  });
  const schema = { ...liveSchema, security: [] };
  // Catches changes no instance was told of (the CLI writes the database directly).
  const recheck = setInterval(() => {
    core.sessions
      .recheck((username) => core.users.users.find(username))
      .catch(() => {
        // The database is unreachable: the next round tries again; passes are refused meanwhile.
      });
  }, core.config.wsSessionRecheckMs);
  recheck.unref();
  app.addHook('onClose', (_instance, hookDone) => {
    clearInterval(recheck);
    hookDone();
  });
  app.get('/core/ws', { websocket: true, config: { publicRoute: true }, schema }, (socket: LiveSocket) => {
    let state: 'waiting' | 'checking' | 'open' | 'closed' = 'waiting';
    let unsubscribe: (() => void) | undefined;
    let forgetSession: (() => void) | undefined;
    const refuse = () => {
      state = 'closed';
      socket.close(WS_CLOSE_UNAUTHORIZED, 'unauthorized');
    };
    // A socket that never authenticates would otherwise hold a connection for as long as the client likes.
    const deadline = setTimeout(() => {
      if (state === 'waiting' || state === 'checking') refuse();
    }, core.config.wsAuthTimeoutMs);
    socket.on('message', (data) => {
      if (state !== 'waiting') return;
      state = 'checking';
      void authenticateFrame(core, String(data)).then((user) => {
        if (state !== 'checking') return;
        if (!user) {
          refuse();
          return;
        }
        clearTimeout(deadline);
        state = 'open';
        forgetSession = core.sessions.open({
          username: user.username,
          stamp: sessionStamp(user),
          end: (reason) => {
            state = 'closed';
            socket.close(WS_CLOSE_UNAUTHORIZED, reason);
          },
        });
        const tags = !core.authenticator.enabled ? core.defaultUserTags : user.tags;
        socket.send(JSON.stringify({ type: 'authenticated', user: user.username }));
        unsubscribe = core.events.subscribe((event) => {
          if (visible(event, tags)) socket.send(JSON.stringify(frameOf(event)));
        });
      });
    });
    socket.on('close', () => {
      state = 'closed';
      clearTimeout(deadline);
      unsubscribe?.();
      forgetSession?.();
    });
  });
  done();
}

/**
 * The stored user a first frame authenticates, or undefined: a pass issued by `GET /api/users/pass`
 * (to this user, as they are stored now), or, with the `wsMd5Pass` setting on, the MD5 form of an
 * existing user (`md5WsPass`).
 */
export async function authenticateFrame(core: NodeManagerCore, frame: string): Promise<UserRecord | undefined> {
  const match = /^auth=([A-Za-z0-9]{1,64});websocket_pass=([0-9a-f]{32})$/.exec(frame.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const [username, pass] = [match[1], match[2]];
  const issued = await core.passes.check(pass, username);
  if (issued !== undefined) return issued;
  if (!core.config.wsMd5Pass || !md5WsPassMatches(username, core.config.wsMd5PassSalt, pass)) return undefined;
  return core.users.users.find(username);
}

/** Alarm and log frames go to users with one of their tags (or `all`); node states to everyone. */
function visible(event: NodeManagerEvent, tags: 'all' | readonly string[]): boolean {
  if (event.type === 'node_state' || tags === 'all') return true;
  return event.tags.some((t) => tags.includes(t));
}

/** The frame a client sees of an event (tags stay on the server, as in the alarm lists). */
function frameOf(event: NodeManagerEvent): Record<string, unknown> {
  switch (event.type) {
    case 'alarm':
      return { type: 'alarm', action: event.action, alarm: event.alarm };
    case 'log':
      return { type: 'log', nodeId: event.nodeId, nodeName: event.nodeName, log: event.log };
    case 'node_state':
      return {
        type: 'node_state',
        nodeId: event.nodeId,
        nodeName: event.nodeName,
        state: event.state,
        deleted: event.deleted,
      };
  }
}
