import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@triad/db';
import { createStarterTemplate, type CliIo } from '@triad/device-templates';
import { startOpcuaServer, type OpcuaTestServer } from '@triad/device-drivers/testing';
import { buildTestApp } from '../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { createDevicesCommand } from './devices-command.js';

function captureIo(): CliIo & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    cwd: process.cwd(),
    exitCode: 0,
    readStdin: () => Promise.resolve(new Uint8Array()),
    out: () => out,
    err: () => err,
  };
}

async function run(args: string[]) {
  const io = captureIo();
  const command = createDevicesCommand(io, { env: {} });
  command.exitOverride();
  command.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  for (const sub of command.commands) {
    sub.exitOverride();
    sub.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  }
  await command.parseAsync(args, { from: 'user' }).catch((error: unknown) => {
    if (!(error instanceof Error && 'exitCode' in error)) throw error;
  });
  return io;
}

describe('triad devices discover --opcua against a real OPC UA server', () => {
  let server: OpcuaTestServer;
  let app: FastifyInstance;
  let url: string;
  const database = openDatabase<TemplatesDatabase>({ sqliteFile: ':memory:' });
  beforeAll(async () => {
    server = await startOpcuaServer();
    app = await buildTestApp(database);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    const stored = await app.inject({
      method: 'POST',
      url: '/templates',
      payload: createStarterTemplate('opcua', { templateId: 'Any OPC UA' }),
    });
    expect(stored.statusCode).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await server?.stop();
    await database.close();
  });
  const discover = (...args: string[]) =>
    run(['discover', '--url', url, '--opcua', '127.0.0.1', '--port', String(server.port), ...args]);

  it('lists the OPC UA flags in --help', async () => {
    const io = await run(['discover', '--help']);
    for (const flag of ['--opcua <targets>', '--security-mode', '--security-policy', '--username', '--identity-cert'])
      expect(io.out()).toContain(flag);
  });

  it('probes with SignAndEncrypt and a user name, and prints the server and the matching template', async () => {
    const io = await discover('--security-mode', 'SignAndEncrypt', '--username', 'operator', '--password', 'secret');
    expect(io.err()).toContain('over OPC UA');
    expect(io.exitCode).toBe(0);
    expect(io.out()).toContain(
      `127.0.0.1  ${server.endpointUrl}  "Triad Triad test server 1.2.3"  -> Any OPC UA@1.0.0`,
    );
    expect(io.out()).toMatch(/objects: .*Server.*1:Boiler|objects: .*1:Boiler.*Server/);
  });

  it('says why a probe failed: a wrong password is an authentication error', async () => {
    const io = await discover('--security-mode', 'Sign', '--username', 'operator', '--password', 'wrong');
    expect(io.exitCode).toBe(0);
    expect(io.out()).toContain('(authentication)');
    expect(io.out()).toContain('refused the identity');
  });

  it('adds the device with --add, the password sealed and hidden', async () => {
    const io = await discover('--username', 'operator', '--password', 'secret', '--add', '--json');
    expect(io.exitCode).toBe(0);
    const [result] = JSON.parse(io.out()) as {
      device: { id: string; variables: Record<string, string>; drivers: Record<string, Record<string, unknown>> };
    }[];
    expect(result?.device.variables).toEqual({ OPCUA_EndpointUrl: server.endpointUrl });
    expect(result?.device.drivers['svc-ds-drv-opcua']).toEqual({
      identity: { type: 'username', userName: 'operator', password: 'hidden' },
    });
    const stored = await database.db.selectFrom('devices').select('drivers_json').executeTakeFirstOrThrow();
    expect(stored.drivers_json).not.toContain('"secret"');
  });

  it('refuses both protocols at once, SNMP flags with --opcua, and half an identity, sending nothing', async () => {
    const both = await run(['discover', '--url', url, '--opcua', '127.0.0.1', '--snmp', '127.0.0.1']);
    expect(both.exitCode).toBe(2);
    expect(both.err()).toContain('either --snmp or --opcua');
    const mixed = await discover('--community', 'public');
    expect(mixed.err()).toContain('--community is for SNMP');
    const half = await discover('--username', 'operator');
    expect(half.err()).toContain('--username and --password go together');
    const mode = await discover('--security-mode', 'Encrypt');
    expect(mode.err()).toContain('Allowed choices are None, Sign, SignAndEncrypt');
  });

  it('still probes over SNMP, naming an address that does not answer', async () => {
    const io = await run(['discover', '--url', url, '--snmp', '127.0.0.1', '--port', '9', '--community', 'public']);
    expect(io.exitCode).toBe(0);
    expect(io.out()).toMatch(/^127\.0\.0\.1 {2}\S/);
  }, 20_000);
});
