import { expect, it, vi } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { PasswordHasher } from '../../auth/password-hasher.js';
import { MIN_PASSWORD_LENGTH } from '../../model/roles.js';
import { MIN_CLI_PASSWORD_LENGTH } from '../../cli/users-command.js';
import { UserCommands } from '../../commands/user-commands.js';
import { UserRepository } from '../../repositories/user-repository.js';
import { ADMIN, basic, buildTestApp, useTestApp } from '../../test-support/node-manager-test-app.js';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

describeEachDatabase<NodeManagerDatabase>('node-manager users and auth', (getDb) => {
  const t = useTestApp(getDb);

  const get = (url: string, headers: Record<string, string> = ADMIN) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, body: unknown, headers: Record<string, string> = ADMIN) =>
    t.app.inject({ method: 'POST', url, headers: { ...JSON_HEADERS, ...headers }, payload: JSON.stringify(body) });

  it('answers 401 with WWW-Authenticate Basic when credentials are missing or wrong', async () => {
    for (const headers of [{}, basic('admin', 'wrong1'), basic('nobody', 'x1'), { authorization: 'Bearer abc' }]) {
      const response = await get('/api/users/username', headers);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm=/);
      expect(response.json()).toEqual({ error: 'unauthorized' });
    }
  });

  it('reports auth status, the current user and admin-ness with valid credentials', async () => {
    expect((await get('/api/users/auth_status')).json()).toBe(true);
    const name = await get('/api/users/username');
    expect(name.headers['content-type']).toMatch(/^application\/json/);
    expect(name.json()).toBe('admin');
    expect((await get('/api/users/is_admin')).json()).toBe(true);
    expect((await get('/api/users/role/admin')).json()).toBe('admin');
    expect((await get('/api/users/rights/admin')).json()).toEqual(['read', 'write', 'execute']);
  });

  it('adds a user with role user and rights read and write, who can sign in', async () => {
    expect((await post('/api/users/add_user', { username: 'bob1', password: 'secret99' })).json()).toBe(true);
    const bob = basic('bob1', 'secret99');
    expect((await get('/api/users/username', bob)).json()).toBe('bob1');
    expect((await get('/api/users/is_admin', bob)).json()).toBe(false);
    expect((await get('/api/users/role/bob1', bob)).json()).toBe('user');
    expect((await get('/api/users/rights/bob1', bob)).json()).toEqual(['read', 'write']);
    expect((await get('/api/users/list_users')).json()).toEqual(['admin', 'bob1']);
  });

  it("refuses admin-only operations and other users' roles to non-admins with 400 {error}", async () => {
    await post('/api/users/add_user', { username: 'bob1', password: 'secret99' });
    const bob = basic('bob1', 'secret99');
    const attempts = [
      await get('/api/users/list_users', bob),
      await post('/api/users/add_user', { username: 'eve', password: 'x1' }, bob),
      await post('/api/users/change_role', { username: 'bob1', role: 'admin' }, bob),
      await post('/api/users/change_rights', { username: 'bob1', rights: ['execute'] }, bob),
      await t.app.inject({ method: 'DELETE', url: '/api/users/delete_user/bob1', headers: bob }),
      await get('/api/users/role/admin', bob),
      await get('/api/users/rights/admin', bob),
      await get('/api/tags/user/admin', bob),
      await post('/api/tags/user', { UserName: 'admin', tags: ['dev'] }, bob),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'not_admin' });
    }
    expect((await get('/api/users/role/bob1')).json()).toBe('user');
    expect((await get('/api/users/list_users')).json()).toEqual(['admin', 'bob1']);
    // Their own tags are theirs to read and set.
    expect((await post('/api/tags/user', { UserName: 'bob1', tags: ['dev'] }, bob)).json()).toBe('ok');
    expect((await get('/api/tags/user/bob1', bob)).json()).toEqual(['dev']);
    // The username is optional: left out, it is the caller.
    expect((await get('/api/tags/user/', bob)).json()).toEqual(['dev']);
    expect((await get('/api/tags/user/admin')).json()).toBe('all');
  });

  it('rejects usernames and passwords that are not letters and digits without storing anything', async () => {
    const badName = await post('/api/users/add_user', { username: 'bob smith', password: 'x1' });
    expect(badName.statusCode).toBe(400);
    expect(badName.json()).toEqual({ error: 'invalid_username' });
    const badPassword = await post('/api/users/add_user', { username: 'bob', password: 'pa-ss' });
    expect(badPassword.json()).toEqual({ error: 'invalid_password' });
    const missing = await post('/api/users/add_user', { username: 'bob' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'invalid_request' });
    expect((await get('/api/users/list_users')).json()).toEqual(['admin']);
  });

  it('refuses passwords shorter than the CLI minimum on user creation and password change', async () => {
    expect(MIN_PASSWORD_LENGTH).toBe(MIN_CLI_PASSWORD_LENGTH);
    for (const password of ['a', '1234567']) {
      const refused = await post('/api/users/add_user', { username: 'pat1', password });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'password_too_short' });
    }
    expect((await get('/api/users/list_users')).json()).toEqual(['admin']);
    const added = await post('/api/users/add_user', { username: 'pat1', password: 'x'.repeat(MIN_PASSWORD_LENGTH) });
    expect(added.json()).toBe(true);
    const bob = basic('pat1', 'x'.repeat(MIN_PASSWORD_LENGTH));
    const change = await post('/api/users/change_password', { password: 'a' }, bob);
    expect(change.json()).toEqual({ error: 'password_too_short' });
    // Nothing changed: the old password still signs in.
    expect((await get('/api/users/username', bob)).json()).toBe('pat1');
  });

  it('refuses a duplicate user', async () => {
    await post('/api/users/add_user', { username: 'bob1', password: 'secret99' });
    const again = await post('/api/users/add_user', { username: 'bob1', password: 'other123' });
    expect(again.json()).toEqual({ error: 'user_exists' });
    expect((await get('/api/users/username', basic('bob1', 'secret99'))).statusCode).toBe(200);
  });

  it('changes the current user password; the old one stops working at once', async () => {
    await post('/api/users/add_user', { username: 'bob1', password: 'secret99' });
    const bob = basic('bob1', 'secret99');
    expect((await get('/api/users/username', bob)).statusCode).toBe(200);
    expect((await post('/api/users/change_password', { password: 'newpass2' }, bob)).json()).toBe(true);
    expect((await get('/api/users/username', bob)).statusCode).toBe(401);
    expect((await get('/api/users/username', basic('bob1', 'newpass2'))).json()).toBe('bob1');
  });

  it('stops accepting a password changed elsewhere (the users CLI) once userRecheckMs has passed', async () => {
    let clock = Date.now();
    const other = await buildTestApp(getDb(), { userRecheckMs: 1000 }, () => clock);
    try {
      await other.core.users.addUser('bob1', 'secret99');
      const ask = (password: string) =>
        other.app.inject({ method: 'GET', url: '/api/users/username', headers: basic('bob1', password) });
      expect((await ask('secret99')).statusCode).toBe(200);
      // Its own commands and caches, like `triad users set-password` beside a running service.
      await new UserCommands(new UserRepository(getDb()), new PasswordHasher(16), 'all').changePassword(
        'bob1',
        'newpass2',
      );
      clock += 1000;
      expect((await ask('secret99')).statusCode).toBe(401);
      expect((await ask('newpass2')).json()).toBe('bob1');
    } finally {
      await other.app.close();
    }
  });

  it('applies role changes made through the service at once, whatever userRecheckMs is', async () => {
    const other = await buildTestApp(getDb(), { userRecheckMs: 60_000 });
    try {
      await other.core.users.addUser('bob1', 'secret99', 'admin');
      const bob = basic('bob1', 'secret99');
      expect((await other.app.inject({ method: 'GET', url: '/api/users/is_admin', headers: bob })).json()).toBe(true);
      await other.core.users.changeRole('bob1', 'user');
      expect((await other.app.inject({ method: 'GET', url: '/api/users/is_admin', headers: bob })).json()).toBe(false);
    } finally {
      await other.app.close();
    }
  });

  it('changes role and rights, validating both', async () => {
    await post('/api/users/add_user', { username: 'bob1', password: 'secret99' });
    expect((await post('/api/users/change_role', { username: 'bob1', role: 'guest' })).json()).toBe(true);
    expect((await get('/api/users/rights/bob1')).json()).toEqual(['read']);
    expect((await post('/api/users/change_role', { username: 'bob1', role: 'king' })).json()).toEqual({
      error: 'invalid_role',
    });
    expect((await post('/api/users/change_rights', { username: 'bob1', rights: ['read', 'execute'] })).json()).toBe(
      true,
    );
    expect((await get('/api/users/rights/bob1')).json()).toEqual(['read', 'execute']);
    for (const rights of [[], ['fly'], ['read', 'read']]) {
      expect((await post('/api/users/change_rights', { username: 'bob1', rights })).json()).toEqual({
        error: 'invalid_rights',
      });
    }
    expect((await post('/api/users/change_role', { username: 'ghost', role: 'user' })).json()).toEqual({
      error: 'user_not_found',
    });
    expect((await post('/api/users/change_role', { username: 'admin', role: 'user' })).json()).toEqual({
      error: 'last_admin',
    });
  });

  it('gives a guest read access but refuses changes', async () => {
    await post('/api/users/add_user', { username: 'gus', password: 'secret99' });
    await post('/api/users/change_role', { username: 'gus', role: 'guest' });
    const gus = basic('gus', 'secret99');
    expect((await get('/api/bookmark', gus)).statusCode).toBe(200);
    const refused = await post('/api/bookmark', { bookmarks: [{ title: 'a', url: 'b' }] }, gus);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'forbidden' });
    expect((await get('/api/bookmark')).json()).toEqual({ bookmarks: [] });
  });

  it('moves front pages to admin on delete, or deletes them with with_pages=true', async () => {
    await post('/api/users/add_user', { username: 'bob1', password: 'secret99' });
    await post('/api/users/add_user', { username: 'amy', password: 'secret99' });
    await t.core.users.users.saveFrontPage('Bob page', 'bob1', []);
    await t.core.users.users.saveFrontPage('Amy page', 'amy', []);
    const del = await t.app.inject({ method: 'DELETE', url: '/api/users/delete_user/bob1', headers: ADMIN });
    expect(del.json()).toBe(true);
    expect(await t.core.users.users.frontPagesOf('admin')).toEqual(['Bob page']);
    await t.app.inject({ method: 'DELETE', url: '/api/users/delete_user/amy?with_pages=true', headers: ADMIN });
    expect(await t.core.users.users.frontPagesOf('admin')).toEqual(['Bob page']);
    expect(await t.core.users.users.frontPagesOf('amy')).toEqual([]);
    expect((await get('/api/users/list_users')).json()).toEqual(['admin']);
    expect((await get('/api/users/username', basic('bob1', 'secret99'))).statusCode).toBe(401);
  });

  it('issues a 32-hex WebSocket pass for the current user', async () => {
    const pass = (await get('/api/users/pass')).json<string>();
    expect(pass).toMatch(/^[0-9a-f]{32}$/);
    expect((await t.core.passes.check(pass, 'admin'))?.username).toBe('admin');
    expect(await t.core.passes.check(pass, 'bob1')).toBeUndefined();
  });

  it('stores passwords as scrypt hashes, never in clear', async () => {
    await post('/api/users/add_user', { username: 'bob1', password: 'secret99' });
    const row = await getDb()
      .db.selectFrom('nm_users')
      .select('password_hash')
      .where('username', '=', 'bob1')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$16\$8\$1\$/);
    expect(row.password_hash).not.toContain('secret99');
  });

  it('answers unknown /api routes and bad JSON in the {error} shape', async () => {
    const missing = await get('/api/nothing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'route_not_found' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/users/add_user',
      headers: { ...JSON_HEADERS, ...ADMIN },
      payload: '{"username":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('error');
  });
});

describeEachDatabase<NodeManagerDatabase>('node-manager with authentication off', (getDb) => {
  const t = useTestApp(getDb, { overrides: { authentication: false, defaultUserTags: 'op' }, resetEachTest: false });

  it('needs no credentials, reports auth off and is_admin false', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/auth_status' })).json()).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/is_admin' })).json()).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/topo/node' })).statusCode).toBe(200);
  });
});

describeEachDatabase<NodeManagerDatabase>('node-manager user changes while authentication is off', (getDb) => {
  it('refuses user, role, rights and password writes, so nothing stored while off can sign in later', async () => {
    const off = await buildTestApp(getDb(), { authentication: false });
    const attacker = { 'content-type': 'application/json' };
    const attempts = [
      { url: '/api/users/change_password', body: { password: 'attacker1' } },
      { url: '/api/users/add_user', body: { username: 'eve', password: 'attacker1' } },
      { url: '/api/users/change_role', body: { username: 'eve', role: 'admin' } },
      { url: '/api/users/change_rights', body: { username: 'admin', rights: ['read'] } },
      { url: '/api/tags/user', body: { UserName: 'admin', tags: ['dev'] } },
    ];
    try {
      for (const { url, body } of attempts) {
        const response = await off.app.inject({
          method: 'POST',
          url,
          headers: attacker,
          payload: JSON.stringify(body),
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: 'authentication_off' });
      }
      const deletion = await off.app.inject({ method: 'DELETE', url: '/api/users/delete_user/admin' });
      expect(deletion.json()).toEqual({ error: 'authentication_off' });
      expect((await off.app.inject({ method: 'GET', url: '/api/tags/user/admin' })).json()).toBe('all');
      // Reads still answer as the spec says.
      expect((await off.app.inject({ method: 'GET', url: '/api/users/list_users' })).json()).toEqual(['admin']);
      expect((await off.app.inject({ method: 'GET', url: '/api/users/rights/admin' })).json()).toEqual([
        'read',
        'write',
        'execute',
      ]);
    } finally {
      await off.app.close();
    }
    const on = await buildTestApp(getDb(), { authentication: true });
    try {
      const asAttacker = await on.app.inject({
        method: 'GET',
        url: '/api/users/username',
        headers: basic('admin', 'attacker1'),
      });
      expect(asAttacker.statusCode).toBe(401);
      expect(
        (await on.app.inject({ method: 'GET', url: '/api/users/username', headers: basic('eve', 'attacker1') }))
          .statusCode,
      ).toBe(401);
      const asAdmin = await on.app.inject({ method: 'GET', url: '/api/users/rights/admin', headers: ADMIN });
      expect(asAdmin.json()).toEqual(['read', 'write', 'execute']);
    } finally {
      await on.app.close();
    }
  });
});

describeEachDatabase<NodeManagerDatabase>('node-manager failed sign-ins', (getDb) => {
  let clock = 1_700_000_000_000;
  const t = useTestApp(getDb, { now: () => clock });
  const signIn = (headers: Record<string, string>, remoteAddress: string) =>
    t.app.inject({ method: 'GET', url: '/api/users/username', headers, remoteAddress });

  it('runs scrypt for an unknown user too, against a dummy hash', async () => {
    const verify = vi.spyOn(t.core.users.hasher, 'verify');
    try {
      expect((await signIn(basic('nobody9', 'guess1'), '10.1.0.1')).statusCode).toBe(401);
      expect((await signIn(basic('admin', 'guess1'), '10.1.0.2')).statusCode).toBe(401);
      expect(verify).toHaveBeenCalledTimes(2);
      const [unknownCall, knownCall] = verify.mock.calls;
      expect(unknownCall?.[1]).toMatch(/^scrypt\$16\$8\$1\$/);
      expect(knownCall?.[1]).toMatch(/^scrypt\$16\$8\$1\$/);
      expect(unknownCall?.[1]).not.toBe(knownCall?.[1]);
    } finally {
      verify.mockRestore();
    }
  });

  it('throttles a burst of concurrent guesses like the same guesses one after another, hashing only 3', async () => {
    const verify = vi.spyOn(t.core.users.hasher, 'verify');
    try {
      const burst = await Promise.all(Array.from({ length: 10 }, () => signIn(basic('ghost1', 'wrong1'), '10.3.0.1')));
      const statuses = burst.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
      // The 429s were refused before any scrypt run.
      expect(verify).toHaveBeenCalledTimes(3);
    } finally {
      verify.mockRestore();
    }
  });

  it('lets a burst of concurrent requests with a password already verified through, user record re-read', async () => {
    expect((await signIn(ADMIN, '10.4.0.1')).statusCode).toBe(200);
    // The user's record is read again (older than the recheck time) while 20 requests wait on it.
    clock += 60_000;
    const burst = await Promise.all(Array.from({ length: 20 }, () => signIn(ADMIN, '10.4.0.1')));
    expect(burst.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
  });

  it('answers 503 sign_in_busy at once when every check is taken and the queue is full', async () => {
    // Real scrypt cost, so the first check still runs while the others arrive; one at a time, two may wait.
    const busy = await buildTestApp(getDb(), { scryptCost: 16_384, passwordHashConcurrency: 1, passwordHashQueue: 2 });
    try {
      // Distinct usernames and addresses: the throttle refuses none of them.
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          busy.app.inject({
            method: 'GET',
            url: '/api/users/username',
            headers: basic(`ghost${i}`, 'wrong1'),
            remoteAddress: `10.6.0.${i + 1}`,
          }),
        ),
      );
      const refused = burst.filter((r) => r.statusCode === 503);
      expect(burst.map((r) => r.statusCode).sort()).toEqual([401, 401, 401, 503, 503, 503, 503, 503, 503, 503]);
      for (const reply of refused) {
        expect(reply.json()).toEqual({ error: 'sign_in_busy' });
        expect(reply.headers['retry-after']).toBe('1');
      }
      expect(busy.core.users.hasher.load).toEqual({ running: 0, waiting: 0 });
      // Drained: the right password goes through.
      expect((await busy.app.inject({ method: 'GET', url: '/api/users/username', headers: ADMIN })).json()).toBe(
        'admin',
      );
    } finally {
      await busy.app.close();
    }
  });

  it('answers 429 with a Retry-After that grows with each failure, without checking the password', async () => {
    const wrong = basic('admin', 'wrong1');
    for (let i = 0; i < 3; i++) expect((await signIn(wrong, '10.2.0.1')).statusCode).toBe(401);
    const waits: string[] = [];
    for (let i = 0; i < 3; i++) {
      const refused = await signIn(wrong, '10.2.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'too_many_attempts' });
      waits.push(String(refused.headers['retry-after']));
      clock += Number(refused.headers['retry-after']) * 1000;
      expect((await signIn(wrong, '10.2.0.1')).statusCode).toBe(401);
    }
    expect(waits).toEqual(['1', '2', '4']);
    // While it waits, even the right password is not checked for that client...
    const blocked = await signIn(ADMIN, '10.2.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('8');
    // ...but works at once from another client.
    expect((await signIn(ADMIN, '10.2.0.2')).json()).toBe('admin');
  });
});
