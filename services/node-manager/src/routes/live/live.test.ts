import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { ADMIN, useTestApp } from '../../test-support/node-manager-test-app.js';
import { WS_CLOSE_UNAUTHORIZED } from './index.js';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';

interface TestSocket {
  send(text: string): void;
  terminate(): void;
  once(event: 'message', listener: (data: Buffer) => void): void;
  once(event: 'close', listener: (code: number) => void): void;
}

describeEachDatabase<NodeManagerDatabase>('node-manager live updates', (getDb) => {
  const t = useTestApp(getDb, { resetEachTest: false });

  const connect = async () =>
    await (t.app as unknown as { injectWS(path: string): Promise<TestSocket> }).injectWS('/api/core/ws');
  const next = (socket: TestSocket) =>
    new Promise<Record<string, unknown>>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)),
    );

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
