import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate, type CliIo } from '@triad/device-templates';
import { describeWithPrograms, freeUdpPort } from '@triad/device-drivers/testing';
import { buildTestApp } from '../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { createDevicesCommand } from './devices-command.js';
import { trapTemplate } from '../test-support/trap-template.js';

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

describeWithPrograms('triad devices probe, SNMP notifications', ['snmptrap'], 'apt-get install snmp', () => {
  it('prints the traps the probed device sends, named from the MIB modules, not those of others', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-probe-traps-'));
    const port = await freeUdpPort();
    const stop = new AbortController();
    try {
      await writeFile(path.join(dir, 'switch.ndst.json'), JSON.stringify(trapTemplate('Trap Probe')));
      const io = captureIo(dir);
      const command = createDevicesCommand(io, {
        env: { TRIAD_SNMP_TRAP_ADDRESS: '127.0.0.1' },
        signal: stop.signal,
      });
      command.exitOverride();
      const probing = command.parseAsync(
        [
          'probe',
          'switch.ndst.json',
          '--var',
          'ICMP_IPAddress=127.0.0.1',
          '--var',
          'SNMP_READ_COMMUNITY=probe-community',
          '--trap-port',
          String(port),
        ],
        { from: 'user' },
      );
      const send = (community: string, varbinds: string[]) =>
        new Promise<void>((resolve, reject) =>
          execFile(
            'snmptrap',
            ['-v', '2c', '-c', community, '127.0.0.1:' + port, '4242', '1.3.6.1.6.3.1.1.5.3', ...varbinds],
            { env: { ...process.env, MIBS: '', MIBDIRS: '/nonexistent' } },
            (error) => (error ? reject(new Error(`snmptrap failed: ${error.message}`)) : resolve()),
          ),
        );
      // The receiver binds when the probed device registers: send until one is taken.
      await expect
        .poll(
          async () => {
            await send('probe-community', ['1.3.6.1.2.1.2.2.1.1.3', 'i', '3']);
            return io.out();
          },
          { timeout: 15_000, interval: 300 },
        )
        .toMatch(/trap IF-MIB::linkDown \(1\.3\.6\.1\.6\.3\.1\.1\.5\.3\) from 127\.0\.0\.1, v2c, up 42\.42 s: /);
      expect(io.out()).toContain('IF-MIB::ifIndex.3=3');
      // Bound now: a trap with another community is not the device's; the next one with its own is.
      await send('someone-else', ['1.3.6.1.2.1.2.2.1.1.7', 'i', '7']);
      await send('probe-community', ['1.3.6.1.2.1.2.2.1.1.5', 'i', '5']);
      await expect.poll(() => io.out(), { timeout: 5_000 }).toContain('IF-MIB::ifIndex.5=5');
      expect(io.out()).not.toContain('ifIndex.7');
      stop.abort();
      await probing;
      expect(io.exitCode).toBe(0);
    } finally {
      stop.abort();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a trap port that is not a port number', async () => {
    const io = captureIo(tmpdir());
    const command = createDevicesCommand(io, {});
    for (const c of [command, ...command.commands])
      c.exitOverride().configureOutput({ writeErr: (text) => io.stderr.write(text) });
    await expect(
      command.parseAsync(['probe', 'x.ndst.json', '--trap-port', '70000'], { from: 'user' }),
    ).rejects.toThrow(/UDP port/);
  });
});
