import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, CurrentUser } from '../auth/authenticator.js';
import { nmError } from '../errors.js';
import {
  authorize,
  authorizeNamedUser,
  authorizeUserChange,
  unknownRouteAccess,
  type Access,
} from '../policies/access-policy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, set by the auth hook on every `/api` request. */
    nmUser: CurrentUser;
  }
  interface FastifyContextConfig {
    /** What the route demands (policies/access-policy.ts); every authenticated route declares it. */
    access?: Access;
    /** Changes users, roles, rights or passwords: refused while authentication is off. */
    changesUsers?: boolean;
    /** Skips Basic authentication (the WebSocket route authenticates with its pass instead). */
    publicRoute?: boolean;
  }
}

/**
 * Authenticates every request of `app`'s context (HTTP Basic when authentication is on; 401
 * otherwise) and applies the access its route declares in `config.access`: the caller-only
 * rules before validation runs, so refused calls learn nothing about their input; `selfOrAdmin`
 * after validation, on the user the request names. A route registered without `access` (and not
 * `publicRoute`) is a programming error reported at start-up.
 */
export function useAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('nmUser', null as unknown as CurrentUser);
  app.addHook('onRoute', (route) => {
    if (route.config?.publicRoute || route.config?.access !== undefined) return;
    throw new Error(`${route.method.toString()} ${route.url} declares no access (config.access)`);
  });
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.publicRoute) return;
    const user = authenticator.enabled ? await signIn(authenticator, request, reply) : authenticator.anonymous;
    request.nmUser = user;
    authorize(user, config.access ?? unknownRouteAccess(request.method));
    if (config.changesUsers) authorizeUserChange(user);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const access = request.routeOptions.config.access;
    try {
      if (access !== undefined && !request.routeOptions.config.publicRoute)
        authorizeNamedUser(request.nmUser, access, request);
      done();
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * The caller named by the request's Basic credentials. @throws NM_ERR_UNAUTHORIZED,
 * NM_ERR_TOO_MANY_ATTEMPTS with `Retry-After` (whole seconds) while the client must wait, or
 * NM_ERR_SIGN_IN_BUSY with `Retry-After` while every password check is taken and the queue full.
 */
async function signIn(
  authenticator: Authenticator,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<CurrentUser> {
  const outcome = await authenticator.authenticate(request.headers.authorization, request.ip);
  if ('user' in outcome) return outcome.user;
  if (outcome.refused === 'unauthorized') throw nmError('NM_ERR_UNAUTHORIZED');
  reply.header('retry-after', String(Math.ceil(outcome.retryAfterMs / 1000)));
  throw nmError(outcome.refused === 'busy' ? 'NM_ERR_SIGN_IN_BUSY' : 'NM_ERR_TOO_MANY_ATTEMPTS');
}
