import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { PasswordHasher } from '../../auth/password-hasher.js';
import { UserCommands } from '../../commands/user-commands.js';
import { UserRepository } from '../../repositories/user-repository.js';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';
import { ADMIN, basic, useTestApp, type TestApp } from '../../test-support/node-manager-test-app.js';
import { WS_CLOSE_UNAUTHORIZED } from './index.js';

interface TestSocket {
  send(text: string): void;
  terminate(): void;
  once(event: 'message', listener: (data: Buffer) => void): void;
  once(event: 'close', listener: (code: number, reason: Buffer) => void): void;
}

const BOB = basic('bob1', 'bobpass12');

/** What the socket does next: its next message, or its close code. */
const nextOutcome = (socket: TestSocket) =>
  new Promise<Record<string, unknown> | number>((resolve) => {
    socket.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>));
    socket.once('close', (code) => resolve(code));
  });

/** The changes a session must not survive, each made through the API as the admin. */
const CHANGES: readonly { readonly what: string; make(t: TestApp): Promise<unknown> }[] = [
  { what: 'a password change', make: (t) => post(t, '/api/users/change_password', { password: 'newpass12' }, BOB) },
  { what: 'a role change', make: (t) => post(t, '/api/users/change_role', { username: 'bob1', role: 'guest' }) },
  { what: 'a rights change', make: (t) => post(t, '/api/users/change_rights', { username: 'bob1', rights: ['read'] }) },
  { what: 'a tags change', make: (t) => post(t, '/api/tags/user', { UserName: 'bob1', tags: ['plant2'] }) },
  {
    what: 'the deletion of the user',
    make: (t) => t.app.inject({ method: 'DELETE', url: '/api/users/delete_user/bob1', headers: ADMIN }),
  },
];

async function post(t: TestApp, url: string, body: unknown, headers: Record<string, string> = ADMIN) {
  const reply = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  expect(reply.statusCode, `${url}: ${reply.body}`).toBe(200);
  return reply;
}

/** Bob, freshly added, and a pass issued to him. */
async function bobWithPass(t: TestApp): Promise<string> {
  await post(t, '/api/users/add_user', { username: 'bob1', password: 'bobpass12' });
  const pass = await t.app.inject({ method: 'GET', url: '/api/users/pass', headers: BOB });
  expect(pass.statusCode).toBe(200);
  return pass.json<string>();
}

async function signIn(t: TestApp, username: string, pass: string): Promise<{ socket: TestSocket; outcome: unknown }> {
  const socket = await (t.app as unknown as { injectWS(path: string): Promise<TestSocket> }).injectWS('/api/core/ws');
  const first = nextOutcome(socket);
  socket.send(`auth=${username};websocket_pass=${pass}`);
  return { socket, outcome: await first };
}

describeEachDatabase<NodeManagerDatabase>('node-manager sessions end when their reason ends', (getDb) => {
  // A long recheck: what these tests see happens at the change, not at a later round.
  const t = useTestApp(getDb, { overrides: { wsSessionRecheckMs: 600_000 } });

  for (const change of CHANGES) {
    it(`refuses a WebSocket pass issued before ${change.what}`, async () => {
      const pass = await bobWithPass(t);
      await change.make(t);
      const { outcome } = await signIn(t, 'bob1', pass);
      expect(outcome).toBe(WS_CLOSE_UNAUTHORIZED);
    });

    it(`closes the open live sockets of the user at ${change.what}, and no other user's`, async () => {
      const pass = await bobWithPass(t);
      const bob = await signIn(t, 'bob1', pass);
      expect(bob.outcome).toEqual({ type: 'authenticated', user: 'bob1' });
      const adminPass = (await t.app.inject({ method: 'GET', url: '/api/users/pass', headers: ADMIN })).json<string>();
      const admin = await signIn(t, 'admin', adminPass);
      expect(admin.outcome).toEqual({ type: 'authenticated', user: 'admin' });
      const bobNext = nextOutcome(bob.socket);
      await change.make(t);
      expect(await bobNext).toBe(WS_CLOSE_UNAUTHORIZED);
      expect(t.core.sessions.size).toBe(1);
      // The admin's socket still gets what happens.
      const adminNext = nextOutcome(admin.socket);
      await t.core.topology.addNode('still@h', 'c');
      expect(await adminNext).toMatchObject({ type: 'node_state', nodeName: 'still@h' });
      admin.socket.terminate();
    });
  }

  it('gives a fresh pass after a change, which opens a socket', async () => {
    await bobWithPass(t);
    await post(t, '/api/users/change_role', { username: 'bob1', role: 'guest' });
    const pass = (await t.app.inject({ method: 'GET', url: '/api/users/pass', headers: BOB })).json<string>();
    const { socket, outcome } = await signIn(t, 'bob1', pass);
    expect(outcome).toEqual({ type: 'authenticated', user: 'bob1' });
    socket.terminate();
  });
});

describeEachDatabase<NodeManagerDatabase>('node-manager sessions: changes made by another process', (getDb) => {
  const t = useTestApp(getDb, { overrides: { wsSessionRecheckMs: 50 } });

  /** The `triad users` CLI: its own commands over the same database, unknown to the service. */
  const otherProcess = () => new UserCommands(new UserRepository(getDb()), new PasswordHasher(16), 'all');

  it('refuses the pass at once and closes the open socket within wsSessionRecheckMs', async () => {
    const pass = await bobWithPass(t);
    const bob = await signIn(t, 'bob1', pass);
    expect(bob.outcome).toEqual({ type: 'authenticated', user: 'bob1' });
    const bobNext = nextOutcome(bob.socket);
    await otherProcess().changePassword('bob1', 'changed12');
    expect((await signIn(t, 'bob1', pass)).outcome).toBe(WS_CLOSE_UNAUTHORIZED);
    expect(await bobNext).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it('closes the socket of a user another process deleted', async () => {
    const pass = await bobWithPass(t);
    const bob = await signIn(t, 'bob1', pass);
    const bobNext = nextOutcome(bob.socket);
    await otherProcess().deleteUser('bob1', false);
    expect(await bobNext).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await signIn(t, 'bob1', pass)).outcome).toBe(WS_CLOSE_UNAUTHORIZED);
  });
});
