import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate, type CliIo } from '@triad/device-templates';
import { buildTestApp } from '../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { createDevicesCommand } from './devices-command.js';

function captureIo(cwd: string): CliIo & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    cwd,
    exitCode: 0,
    readStdin: () => Promise.resolve(new Uint8Array()),
    out: () => out,
    err: () => err,
  };
}

async function run(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, signal?: AbortSignal) {
  const io = captureIo(cwd);
  const command = createDevicesCommand(io, { env, ...(signal ? { signal } : {}) });
  command.exitOverride();
  await command.parseAsync(args, { from: 'user' });
  return io;
}

describe('triad devices', () => {
  let dir: string;
  let app: FastifyInstance;
  let url: string;
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'triad-devices-'));
    const template = createStarterTemplate('icmp', { templateId: 'Ping' });
    await writeFile(path.join(dir, 'ping.ndst.json'), JSON.stringify(template));
    app = await buildTestApp(database, { adminToken: 'cli-test-token-0123456' });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    const stored = await app.inject({
      method: 'POST',
      url: '/templates',
      payload: template,
      headers: { authorization: 'Bearer cli-test-token-0123456' },
    });
    expect(stored.statusCode).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('probe --once reads a starter template from loopback and exits 0', async () => {
    const io = await run(dir, ['probe', 'ping.ndst.json', '--var', 'ICMP_IPAddress=127.0.0.1', '--once']);
    expect(io.err()).toContain('device 127.0.0.1 is up');
    expect(io.out()).toMatch(/reachability\/packetLoss = 0 {2}\(good\)/);
    expect(io.exitCode).toBe(0);
  });

  it('probe names a missing variable and exits 1', async () => {
    const io = await run(dir, ['probe', 'ping.ndst.json', '--once']);
    expect(io.err()).toContain('/variables/ICMP_IPAddress');
    expect(io.exitCode).toBe(1);
  });

  it('add, list, values and remove go through the service; a write without the token is refused', async () => {
    const add = ['add', '--url', url, '--name', 'lo', '--template', 'Ping@1.0.0', '--var', 'ICMP_IPAddress=127.0.0.1'];
    const refused = await run(dir, add);
    expect(refused.exitCode).toBe(1);
    expect(refused.err()).toContain('Bearer');
    const added = await run(dir, [...add, '--json'], { TRIAD_TEMPLATES_TOKEN: 'cli-test-token-0123456' });
    expect(added.exitCode).toBe(0);
    const { id } = JSON.parse(added.out()) as { id: string };
    const listed = await run(dir, ['list', '--url', url]);
    expect(listed.out()).toContain(id);
    expect(listed.out()).toContain('lo  (Ping@1.0.0)');
    await expect
      .poll(async () => (await run(dir, ['values', id, '--url', url])).out(), { timeout: 5_000 })
      .toContain('reachability/packetLoss = 0');
    // watch prints the current values first, then changes, until stopped.
    const stop = new AbortController();
    const watching = run(dir, ['watch', id, '--url', url], {}, stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop.abort();
    const watched = await watching;
    expect(watched.out()).toMatch(/reachability\/packetLoss = 0 {2}\(good\)/);
    expect(watched.exitCode).toBe(0);

    // An alarm id the device does not have: the service's words, exit 1.
    const token = ['--token', 'cli-test-token-0123456'];
    const ack = await run(dir, ['ack', id, 'AAAAAAAAAAAAAAAAAAAAAA', '--url', url, ...token]);
    expect(ack.exitCode).toBe(1);
    expect(ack.err()).toContain(`Device ${id} has no raised alarm AAAAAAAAAAAAAAAAAAAAAA`);
    expect((await run(dir, ['alarms', id, '--url', url])).out()).toBe('no active alarms\n');

    const removed = await run(dir, ['remove', id, '--url', url, '--token', 'cli-test-token-0123456']);
    expect(removed.out()).toBe(`removed device ${id}\n`);
    const gone = await run(dir, ['show', id, '--url', url]);
    expect(gone.exitCode).toBe(1);
  });
});
