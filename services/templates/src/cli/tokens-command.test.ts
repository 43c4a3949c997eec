import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '@triad/device-templates';
import { startTemplatesServer, type RunningTemplatesServer } from '../server.js';
import { createTokensCommand } from './tokens-command.js';

async function run(cwd: string, args: string[]) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    cwd,
    exitCode: 0,
    readStdin: () => Promise.resolve(new Uint8Array()),
  };
  const command = createTokensCommand(io, { env: {} });
  for (const c of [command, ...command.commands])
    c.exitOverride().configureOutput({ writeErr: (s) => (err += s), writeOut: (s) => (out += s) });
  await command.parseAsync(args, { from: 'user' });
  return { out, err, exitCode: io.exitCode };
}

describe('triad templates tokens', () => {
  let dir: string;
  let server: RunningTemplatesServer;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'triad-tokens-'));
    server = await startTemplatesServer(
      { port: 0, dataDir: path.join(dir, 'data'), demo: true, logLevel: 'silent', collectDevices: false },
      { env: {} },
    );
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the demo start prints a write token that writes', async () => {
    const line = server.notes.find((n) => n.startsWith('write token'));
    const token = /(tdt_\S+)/.exec(line ?? '')?.[1];
    expect(token).toBeDefined();
    const refused = await fetch(`${server.url}/templates/ICMP%20host`, { method: 'DELETE' });
    expect(refused.status).toBe(401);
    const deleted = await fetch(`${server.url}/templates/ICMP%20host/1.0.0`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(204);
  });

  it('adds a token shown once, lists it without the secret, and revokes it so it stops working', async () => {
    const added = await run(dir, ['add', 'ci', '--scope', 'admin']);
    expect(added.exitCode).toBe(0);
    const token = added.out.trim();
    expect(token).toMatch(/^tdt_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(added.err).toContain('shown only now');
    const id = token.split('_')[1]!;

    const listed = await run(dir, ['list']);
    expect(listed.out).toContain(`${id}  admin  ci`);
    expect(listed.out).not.toContain(token.slice(21));
    // The demo token of the start is there too.
    expect(listed.out).toContain('demo (triad serve)');

    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${server.url}/templates/Nothing%20here`, { method: 'DELETE', headers: auth })).status).toBe(
      404,
    );
    const revoked = await run(dir, ['revoke', id]);
    expect(revoked.out).toBe(`revoked token ${id}\n`);
    expect((await fetch(`${server.url}/templates/Nothing%20here`, { method: 'DELETE', headers: auth })).status).toBe(
      401,
    );
    const again = await run(dir, ['revoke', id]);
    expect(again.exitCode).toBe(1);
  });

  it('refuses an unknown scope as a usage error', async () => {
    await expect(run(dir, ['add', 'x', '--scope', 'root'])).rejects.toThrow(/choose one of read, write, admin/);
  });
});
