import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { md5WsPass } from '../../auth/md5-ws-pass.js';
import { ADMIN, useTestApp } from '../../test-support/node-manager-test-app.js';
import { WS_CLOSE_UNAUTHORIZED } from './index.js';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';

interface TestSocket {
  send(text: string): void;
  terminate(): void;
  once(event: 'message', listener: (data: Buffer) => void): void;
  once(event: 'close', listener: (code: number) => void): void;
}

const connectTo = async (app: unknown) =>
  await (app as { injectWS(path: string): Promise<TestSocket> }).injectWS('/api/core/ws');
const next = (socket: TestSocket) =>
  new Promise<Record<string, unknown>>((resolve) =>
    socket.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)),
  );
/** What the socket does first: its first message, or its close code. */
const firstOutcome = (socket: TestSocket) =>
  new Promise<Record<string, unknown> | number>((resolve) => {
    socket.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>));
    socket.once('close', resolve);
  });

describeEachDatabase<NodeManagerDatabase>('node-manager live updates', (getDb) => {
  const t = useTestApp(getDb, { resetEachTest: false });
  const connect = () => connectTo(t.app);

  it('authenticates with a pass and pushes alarm changes', async () => {
    const pass = (await t.app.inject({ method: 'GET', url: '/api/users/pass', headers: ADMIN })).json<string>();
    const socket = await connect();
    const welcome = next(socket);
    socket.send(`auth=admin;websocket_pass=${pass}`);
    expect(await welcome).toEqual({ type: 'authenticated', user: 'admin' });
    const stateChange = next(socket);
    const node = await t.core.topology.addNode('live@h', 'c');
    expect(await stateChange).toEqual({
      type: 'node_state',
      nodeId: node.id,
      nodeName: 'live@h',
      state: 'DOWN',
      deleted: false,
    });
    const pushed = next(socket);
    await t.core.alarms.raise({ alarmId: 'node_down', nodeId: node.id });
    expect(await pushed).toMatchObject({
      type: 'alarm',
      action: 'raised',
      alarm: { alarmId: 'node_down', src: { nodeId: node.id } },
    });
    socket.terminate();
  });

  it('closes the socket with 4401 on a wrong pass', async () => {
    const socket = await connect();
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    socket.send(`auth=admin;websocket_pass=${'0'.repeat(32)}`);
    expect(await closed).toBe(WS_CLOSE_UNAUTHORIZED);
  });
});

describeEachDatabase<NodeManagerDatabase>('node-manager live updates: auth deadline and MD5 passes', (getDb) => {
  const t = useTestApp(getDb, {
    resetEachTest: false,
    overrides: { wsAuthTimeoutMs: 200, wsMd5Pass: true, wsMd5PassSalt: 'loadtest' },
  });
  const off = useTestApp(getDb, { resetEachTest: false });

  it('closes a socket that sends no auth frame within wsAuthTimeoutMs with 4401', async () => {
    const socket = await connectTo(t.app);
    expect(await firstOutcome(socket)).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it('keeps an authenticated socket open past the deadline', async () => {
    const socket = await connectTo(t.app);
    const pass = (await t.app.inject({ method: 'GET', url: '/api/users/pass', headers: ADMIN })).json<string>();
    socket.send(`auth=admin;websocket_pass=${pass}`);
    expect(await firstOutcome(socket)).toEqual({ type: 'authenticated', user: 'admin' });
    // An event pushed after the deadline still arrives: the socket was not closed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pushed = firstOutcome(socket);
    await t.core.topology.addNode('late@h', 'c');
    expect(await pushed).toMatchObject({ type: 'node_state', nodeName: 'late@h' });
    socket.terminate();
  });

  it('accepts the MD5 hex of username and salt as a pass when wsMd5Pass is on', async () => {
    expect(md5WsPass('admin', 'loadtest')).toMatch(/^[0-9a-f]{32}$/);
    const socket = await connectTo(t.app);
    socket.send(`auth=admin;websocket_pass=${md5WsPass('admin', 'loadtest')}`);
    expect(await firstOutcome(socket)).toEqual({ type: 'authenticated', user: 'admin' });
    socket.terminate();
  });

  it('refuses the MD5 form for an unknown user or another salt', async () => {
    for (const frame of [
      `auth=ghost;websocket_pass=${md5WsPass('ghost', 'loadtest')}`,
      `auth=admin;websocket_pass=${md5WsPass('admin', 'other')}`,
    ]) {
      const socket = await connectTo(t.app);
      socket.send(frame);
      expect(await firstOutcome(socket)).toBe(WS_CLOSE_UNAUTHORIZED);
    }
  });

  it('refuses the MD5 form when wsMd5Pass is off (the default)', async () => {
    expect(off.core.config.wsMd5Pass).toBe(false);
    const socket = await connectTo(off.app);
    socket.send(`auth=admin;websocket_pass=${md5WsPass('admin', '')}`);
    expect(await firstOutcome(socket)).toBe(WS_CLOSE_UNAUTHORIZED);
  });
});
