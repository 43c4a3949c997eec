import type { SchemaTypedApp } from '@triad/service-kit';
import type { NodeManagerCore } from '../../node-manager-core.js';
import { nmError } from '../../errors.js';
import { sendJson } from '../../http/send-json.js';
import * as s from './schemas.js';

export interface UsersRoutesOptions {
  readonly core: NodeManagerCore;
}

/** `/api/users/*`: the spec's user endpoints with its access rules. */
export function usersRoutes(app: SchemaTypedApp, { core }: UsersRoutesOptions, done: (error?: Error) => void): void {
  const own = { access: 'none' } as const;
  const admin = { access: 'admin' } as const;
  const selfOrAdmin = { access: { selfOrAdmin: { in: 'params', name: 'username' } } } as const;
  // Refused while authentication is off (access-policy.ts authorizeUserChange).
  const ownChange = { ...own, changesUsers: true } as const;
  const adminChange = { ...admin, changesUsers: true } as const;

  app.get('/auth_status', { schema: s.authStatusSchema, config: own }, () =>
    Promise.resolve(core.authenticator.enabled),
  );
  app.get('/username', { schema: s.usernameSchema, config: own }, async (request, reply) =>
    sendJson(reply, request.nmUser.username),
  );
  app.get('/pass', { schema: s.passSchema, config: own }, async (request, reply) => {
    const user = await core.users.users.find(request.nmUser.username);
    if (!user) throw nmError('NM_ERR_UNAUTHORIZED');
    return sendJson(reply, await core.passes.issue(user));
  });
  app.get('/is_admin', { schema: s.isAdminSchema, config: own }, (request) =>
    Promise.resolve(request.nmUser.authenticated && request.nmUser.role === 'admin'),
  );

  app.get('/role/:username', { schema: s.roleSchema, config: selfOrAdmin }, async (request, reply) => {
    const user = await core.users.users.find(request.params.username);
    if (!user) throw nmError('NM_ERR_USER_NOT_FOUND');
    return sendJson(reply, user.role);
  });
  app.get('/rights/:username', { schema: s.rightsSchema, config: selfOrAdmin }, async (request) => {
    const user = await core.users.users.find(request.params.username);
    if (!user) throw nmError('NM_ERR_USER_NOT_FOUND');
    return user.rights;
  });

  app.post('/change_password', { schema: s.changePasswordSchema, config: ownChange }, async (request) => {
    await core.users.changePassword(request.nmUser.username, request.body.password);
    return true;
  });
  app.post('/change_role', { schema: s.changeRoleSchema, config: adminChange }, async (request) => {
    await core.users.changeRole(request.body.username, request.body.role);
    return true;
  });
  app.post('/change_rights', { schema: s.changeRightsSchema, config: adminChange }, async (request) => {
    await core.users.changeRights(request.body.username, request.body.rights);
    return true;
  });
  app.get('/list_users', { schema: s.listUsersSchema, config: admin }, async () => core.users.users.listNames());
  app.post('/add_user', { schema: s.addUserSchema, config: adminChange }, async (request) => {
    await core.users.addUser(request.body.username, request.body.password);
    return true;
  });
  app.delete('/delete_user/:username', { schema: s.deleteUserSchema, config: adminChange }, async (request) => {
    await core.users.deleteUser(request.params.username, request.query.with_pages === true);
    return true;
  });
  done();
}
