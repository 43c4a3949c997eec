import type { FastifyRequest } from 'fastify';
import type { CurrentUser } from '../auth/authenticator.js';
import type { Right } from '../model/roles.js';
import { nmError } from '../errors.js';

/**
 * What a route demands beyond authentication, declared in its `config.access`: `admin`, a right,
 * `none` (any signed-in user, e.g. reading one's own name) or `selfOrAdmin` (admin, or the user
 * the validated request names in `params` or `body`). With authentication off every caller passes.
 */
export type Access = 'admin' | 'none' | Right | SelfOrAdmin;

/** Admin, or the user named by the request field `name` of `in` (checked once the input is validated). */
export interface SelfOrAdmin {
  readonly selfOrAdmin: { readonly in: 'params' | 'body'; readonly name: string };
}

/**
 * The checks that need only the caller (run before validation, so refused calls learn nothing
 * about their input): throws the catalogue error when `user` may not use a route demanding `access`.
 * `selfOrAdmin` passes here; `authorizeNamedUser` finishes it.
 */
export function authorize(user: CurrentUser, access: Access): void {
  if (!user.authenticated || access === 'none' || typeof access === 'object') return;
  if (access === 'admin') {
    if (user.role !== 'admin') throw nmError('NM_ERR_NOT_ADMIN');
    return;
  }
  if (!user.rights.includes(access)) throw nmError('NM_ERR_FORBIDDEN', `needs the ${access} right`);
}

/** The `selfOrAdmin` check on the validated request: admin, or the user it names. @throws NM_ERR_NOT_ADMIN */
export function authorizeNamedUser(user: CurrentUser, access: Access, request: FastifyRequest): void {
  if (typeof access !== 'object') return;
  const source: unknown = access.selfOrAdmin.in === 'params' ? request.params : request.body;
  const named = isRecord(source) ? source[access.selfOrAdmin.name] : undefined;
  // An empty name (an optional path segment left out) names the caller.
  authorizeSelfOrAdmin(user, typeof named === 'string' && named !== '' ? named : user.username);
}

/**
 * Refuses a change to users, roles, rights or passwords made while authentication is off: every
 * caller is then an anonymous admin, and what they stored would let them sign in once
 * authentication is switched back on. @throws NM_ERR_AUTHENTICATION_OFF
 */
export function authorizeUserChange(user: CurrentUser): void {
  if (!user.authenticated) throw nmError('NM_ERR_AUTHENTICATION_OFF');
}

/** Admin, or that user. @throws NM_ERR_NOT_ADMIN */
export function authorizeSelfOrAdmin(user: CurrentUser, username: string): void {
  if (!user.authenticated || user.role === 'admin' || user.username === username) return;
  throw nmError('NM_ERR_NOT_ADMIN');
}

/** Access of a request no route answers (the 404 reply): reads need `read`, changes need `write`. */
export function unknownRouteAccess(method: string): Access {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
