import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';
import type { NodeLogEntry } from '../../model/node-log-entry.js';
import { ADMIN, basic, useTestApp } from '../../test-support/node-manager-test-app.js';

interface TestSocket {
  send(text: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
}

const entry = (timeUs: number, level: NodeLogEntry['level'], kind = 'logger_event'): NodeLogEntry => ({
  timeUs,
  level,
  kind,
  text: `${kind} at ${timeUs}`,
});

describeEachDatabase<NodeManagerDatabase>('node-manager logs', (getDb) => {
  const t = useTestApp(getDb, { overrides: { logsPerNode: 3 } });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: ADMIN });

  it('lists the newest entries first, keeps at most logsPerNode per node, filters by level', async () => {
    const node = await t.core.topology.addNode('logs@h', 'c');
    const other = await t.core.topology.addNode('other@h', 'c');
    const target = { id: node.id, name: node.name };
    await t.core.logs.record(target, [entry(1_000_000, 'error', 'crash_report'), entry(3_000_000, 'warning')]);
    await t.core.logs.record(target, [entry(2_000_000, 'info', 'progress_report'), entry(4_000_500, 'critical')]);
    await t.core.logs.record({ id: other.id, name: other.name }, [entry(5_000_000, 'error')]);
    const all = await get(`/api/logs/node/${node.id}`);
    expect(all.statusCode).toBe(200);
    // The oldest of four went: three kept, newest first, times in ms.
    expect(all.json()).toEqual({
      logs: [
        { time: 4_000, level: 'critical', kind: 'logger_event', text: 'logger_event at 4000500' },
        { time: 3_000, level: 'warning', kind: 'logger_event', text: 'logger_event at 3000000' },
        { time: 2_000, level: 'info', kind: 'progress_report', text: 'progress_report at 2000000' },
      ],
    });
    expect((await get(`/api/logs/node/${node.id}?level=warning`)).json<{ logs: unknown[] }>().logs).toHaveLength(2);
    expect((await get(`/api/logs/node/${node.id}?level=emergency`)).json()).toEqual({ logs: [] });
    expect((await get(`/api/logs/node/${node.id}?limit=1`)).json<{ logs: { time: number }[] }>().logs).toEqual([
      expect.objectContaining({ time: 4_000 }),
    ]);
    // Crash reports count as crash logs of node-stat.
    expect(await t.core.topologyStore.countCrashLogsSince(0)).toBe(1);
  });

  it('answers 404 for an unknown node and 400 for a bad limit or level', async () => {
    expect((await get('/api/logs/node/nosuchnode')).statusCode).toBe(404);
    const node = await t.core.topology.addNode('q@h', 'c');
    expect((await get(`/api/logs/node/${node.id}?limit=1001`)).statusCode).toBe(400);
    expect((await get(`/api/logs/node/${node.id}?level=loud`)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/logs/node/${node.id}` })).statusCode).toBe(401);
  });

  it('pushes each collected entry on the WebSocket', async () => {
    const node = await t.core.topology.addNode('ws@h', 'c');
    const pass = (await get('/api/users/pass')).json<string>();
    const socket = await (t.app as unknown as { injectWS(path: string): Promise<TestSocket> }).injectWS('/api/core/ws');
    const messages: Record<string, unknown>[] = [];
    const authenticated = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        messages.push(JSON.parse(String(data)) as Record<string, unknown>);
        if (messages.length === 1) resolve();
      }),
    );
    socket.send(`auth=admin;websocket_pass=${pass}`);
    await authenticated;
    const logged = new Promise<void>((resolve) => socket.on('message', () => resolve()));
    await t.core.logs.record({ id: node.id, name: node.name }, [entry(7_000_000, 'error', 'crash_report')]);
    await logged;
    socket.terminate();
    expect(messages.at(-1)).toEqual({
      type: 'log',
      nodeId: node.id,
      nodeName: 'ws@h',
      log: { time: 7_000, level: 'error', kind: 'crash_report', text: 'crash_report at 7000000' },
    });
  });

  it('pushes log entries only to users with one of their tags, as alarms', async () => {
    await t.core.users.addUser('ops', 'opspw123');
    await t.core.users.setTags('ops', ['op']);
    await t.core.users.addUser('billing', 'billingpw1');
    await t.core.users.setTags('billing', ['billing']);
    const listen = async (username: string, password: string) => {
      const headers = basic(username, password);
      const pass = (await t.app.inject({ method: 'GET', url: '/api/users/pass', headers })).json<string>();
      const socket = await (t.app as unknown as { injectWS(path: string): Promise<TestSocket> }).injectWS(
        '/api/core/ws',
      );
      const types: string[] = [];
      let marked: () => void = () => undefined;
      const marker = new Promise<void>((resolve) => (marked = resolve));
      const authenticated = new Promise<void>((resolve) =>
        socket.on('message', (data) => {
          const frame = JSON.parse(String(data)) as { type: string; nodeName?: string };
          types.push(frame.type);
          if (frame.type === 'authenticated') resolve();
          if (frame.type === 'node_state' && frame.nodeName === 'marker@h') marked();
        }),
      );
      socket.send(`auth=${username};websocket_pass=${pass}`);
      await authenticated;
      return { socket, types, marker };
    };
    const ops = await listen('ops', 'opspw123');
    const billing = await listen('billing', 'billingpw1');
    const node = await t.core.topology.addNode('tagged@h', 'c');
    await t.core.logs.record({ id: node.id, name: node.name }, [entry(8_000_000, 'error')]);
    // Frames arrive in order: once the marker's node_state is in, a log frame would be too.
    await t.core.topology.addNode('marker@h', 'c');
    await Promise.all([ops.marker, billing.marker]);
    ops.socket.terminate();
    billing.socket.terminate();
    expect(ops.types).toEqual(['authenticated', 'node_state', 'log', 'node_state']);
    expect(billing.types).toEqual(['authenticated', 'node_state', 'node_state']);
    // The list over HTTP follows the same rule.
    const listed = (username: string, password: string) =>
      t.app.inject({ method: 'GET', url: `/api/logs/node/${node.id}`, headers: basic(username, password) });
    expect((await listed('ops', 'opspw123')).json<{ logs: unknown[] }>().logs).toHaveLength(1);
    const hidden = await listed('billing', 'billingpw1');
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toEqual({ logs: [] });
  });
});
