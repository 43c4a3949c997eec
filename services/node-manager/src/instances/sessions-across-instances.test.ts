import { describePostgresOnly } from '@triad/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { WS_CLOSE_UNAUTHORIZED } from '../routes/live/index.js';
import { LIVE_ADMIN } from '../test-support/live-node-manager.js';
import { NodeManagerCluster, type ClusterMember } from '../test-support/node-manager-cluster.js';

const BOB = { authorization: `Basic ${Buffer.from('bob1:bobpass12').toString('base64')}` };

async function call(member: ClusterMember, method: string, url: string, body?: unknown, headers = LIVE_ADMIN) {
  const reply = await fetch(`${member.url}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(reply.status, `${method} ${url}`).toBe(200);
  return reply.json();
}

/** A live socket on `member` signed in with `pass`: its first frame, or its close code; and how it ends. */
async function openLive(member: ClusterMember, username: string, pass: string) {
  const socket = new WebSocket(`${member.url.replace(/^http/, 'ws')}/api/core/ws`);
  const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const first = new Promise<unknown>((resolve) => {
    socket.once('message', (data: Buffer) => resolve(JSON.parse(String(data))));
    void closed.then(resolve);
  });
  socket.send(`auth=${username};websocket_pass=${pass}`);
  return { first: await first, closed, close: () => socket.terminate() };
}

describePostgresOnly<NodeManagerDatabase>('sessions end on every node manager of a shared database', (getDb, url) => {
  let cluster: NodeManagerCluster;
  let a: ClusterMember;
  let b: ClusterMember;

  beforeAll(async () => {
    cluster = new NodeManagerCluster(url, getDb().schema ?? '');
    // No recheck round during the test: what closes the socket on A is B's message on the change bus.
    const env = { TRIAD_WS_SESSION_RECHECK_MS: '600000' };
    a = await cluster.startHere(env);
    b = await cluster.startHere(env);
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  const withBob = async () => {
    await call(a, 'POST', '/api/users/add_user', { username: 'bob1', password: 'bobpass12' });
    return (await call(a, 'GET', '/api/users/pass', undefined, BOB)) as string;
  };

  it('closes a socket on one instance and refuses its pass everywhere when another changes the password', async () => {
    const pass = await withBob();
    const live = await openLive(a, 'bob1', pass);
    expect(live.first).toEqual({ type: 'authenticated', user: 'bob1' });
    await call(b, 'POST', '/api/users/change_password', { password: 'newpass12' }, BOB);
    expect(await live.closed).toBe(WS_CLOSE_UNAUTHORIZED);
    for (const member of [a, b]) expect((await openLive(member, 'bob1', pass)).first).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it('closes the socket and refuses the pass on every instance when another deletes the user', async () => {
    await call(b, 'DELETE', '/api/users/delete_user/bob1');
    const pass = await withBob();
    const live = await openLive(b, 'bob1', pass);
    expect(live.first).toEqual({ type: 'authenticated', user: 'bob1' });
    await call(a, 'DELETE', '/api/users/delete_user/bob1');
    expect(await live.closed).toBe(WS_CLOSE_UNAUTHORIZED);
    for (const member of [a, b]) expect((await openLive(member, 'bob1', pass)).first).toBe(WS_CLOSE_UNAUTHORIZED);
  });
});
