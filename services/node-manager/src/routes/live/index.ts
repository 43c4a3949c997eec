// The 'hide' member of route schemas comes from @fastify/swagger's augmentation of FastifySchema.
import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { NodeManagerEvent } from '../../events/node-manager-events.js';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { liveSchema } from './schemas.js';

/** Close code sent when the first message does not authenticate. */
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
 * (`{"type":"alarm","action":...,"alarm":{...}}`, filtered by the user's tags) and node state
 * change (`{"type":"node_state",...}`). A wrong first frame closes the socket with 4401.
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
  app.get('/core/ws', { websocket: true, config: { publicRoute: true }, schema }, (socket: LiveSocket) => {
    let unsubscribe: (() => void) | undefined;
    socket.on('message', (data) => {
      if (unsubscribe) return;
      const user = authenticateFrame(core, String(data));
      if (!user) {
        socket.close(WS_CLOSE_UNAUTHORIZED, 'unauthorized');
        return;
      }
      void core.users.users.find(user).then((record) => {
        const tags = !core.authenticator.enabled ? core.defaultUserTags : (record?.tags ?? []);
        socket.send(JSON.stringify({ type: 'authenticated', user }));
        unsubscribe = core.events.subscribe((event) => {
          if (visible(event, tags))
            socket.send(
              JSON.stringify(
                event.type === 'alarm' ? { type: 'alarm', action: event.action, alarm: event.alarm } : event,
              ),
            );
        });
      });
    });
    socket.on('close', () => unsubscribe?.());
  });
  done();
}

/** The username a first frame authenticates, or undefined. */
export function authenticateFrame(core: NodeManagerCore, frame: string): string | undefined {
  const match = /^auth=([A-Za-z0-9]{1,64});websocket_pass=([0-9a-f]{32})$/.exec(frame.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return core.passes.check(match[2], match[1]);
}

function visible(event: NodeManagerEvent, tags: 'all' | readonly string[]): boolean {
  if (event.type !== 'alarm' || tags === 'all') return true;
  return event.tags.some((t) => tags.includes(t));
}
