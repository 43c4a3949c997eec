import type { FastifyInstance } from 'fastify';
import type { Authenticator, CurrentUser } from '../auth/authenticator.js';
import { nmError } from '../errors.js';
import { authorize, defaultAccess, type Access } from '../policies/access-policy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, set by the auth hook on every `/api` request. */
    nmUser: CurrentUser;
  }
  interface FastifyContextConfig {
    /** What the route demands (policies/access-policy.ts); default by method. */
    access?: Access;
    /** Skips Basic authentication (the WebSocket route authenticates with its pass instead). */
    publicRoute?: boolean;
  }
}

/**
 * Authenticates every request of `app`'s context (HTTP Basic when authentication is on; 401
 * otherwise) and applies the route's access rule before validation runs, so refused calls
 * learn nothing about their input.
 */
export function useAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('nmUser', null as unknown as CurrentUser);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.publicRoute) return;
    const user = authenticator.enabled
      ? await authenticator.authenticate(request.headers.authorization)
      : authenticator.anonymous;
    if (!user) throw nmError('NM_ERR_UNAUTHORIZED');
    request.nmUser = user;
    authorize(user, request.routeOptions.config.access ?? defaultAccess(request.method));
  });
}
