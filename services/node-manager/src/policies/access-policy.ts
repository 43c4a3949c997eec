import type { CurrentUser } from '../auth/authenticator.js';
import type { Right } from '../auth/roles.js';
import { nmError } from '../errors.js';

/**
 * What a route demands beyond authentication: `admin`, a right, or `none` (any signed-in user,
 * e.g. reading one's own name). With authentication off every caller passes.
 */
export type Access = 'admin' | 'none' | Right;

/** Throws the catalogue error when `user` may not use a route demanding `access`. */
export function authorize(user: CurrentUser, access: Access): void {
  if (!user.authenticated || access === 'none') return;
  if (access === 'admin') {
    if (user.role !== 'admin') throw nmError('NM_ERR_NOT_ADMIN');
    return;
  }
  if (!user.rights.includes(access)) throw nmError('NM_ERR_FORBIDDEN', `needs the ${access} right`);
}

/** Reading a user's role, rights or tags: admin, or that user. */
export function authorizeSelfOrAdmin(user: CurrentUser, username: string): void {
  if (!user.authenticated || user.role === 'admin' || user.username === username) return;
  throw nmError('NM_ERR_NOT_ADMIN');
}

/** Default access by HTTP method: reads need `read`, changes need `write`. */
export function defaultAccess(method: string): Access {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}
