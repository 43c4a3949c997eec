import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeManagerServer } from './server.js';
import { createUsersCommand } from './cli/users-command.js';
import { memoryUsersIo } from './test-support/memory-users-io.js';

describe('startNodeManagerServer', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-server-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates admin with a generated password shown once in notes, and keeps data across restarts', async () => {
    const env = { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent' };
    const first = await startNodeManagerServer({ port: 0, dataDir }, { env });
    const note = first.notes.find((n) => n.includes('password'));
    const password = /shown once\): ([0-9a-f]+)$/.exec(note ?? '')?.[1];
    expect(password).toMatch(/^[0-9a-f]{24}$/);
    const auth = { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` };
    const added = await fetch(`${first.url}/api/topo/action/add-node`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'keep@h', cookie: 'c' }),
    });
    expect(added.status).toBe(200);
    await first.close();

    const second = await startNodeManagerServer({ port: 0, dataDir }, { env });
    expect(second.notes.some((n) => n.includes('password'))).toBe(false);
    const nodes = (await (await fetch(`${second.url}/api/topo/node`, { headers: auth })).json()) as { name: string }[];
    expect(nodes.map((n) => n.name)).toEqual(['keep@h']);

    // The CLI works on the same database while the service runs.
    const io = memoryUsersIo();
    await createUsersCommand(io, { env }).parseAsync([
      'node',
      'users',
      '--data-dir',
      dataDir,
      'add',
      'carol',
      'pw123456',
      '--role',
      'admin',
    ]);
    expect(io.exitCode).toBe(0);
    const carol = { authorization: `Basic ${Buffer.from('carol:pw123456').toString('base64')}` };
    expect(await (await fetch(`${second.url}/api/users/is_admin`, { headers: carol })).json()).toBe(true);
    await createUsersCommand(io, { env }).parseAsync(['node', 'users', '--data-dir', dataDir, 'add', 'bad name', 'x']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr.text).toContain('triad users: a username is 1 to 64 letters and digits');
    await second.close();
  });
});

describe('startNodeManagerServer when the port is taken', () => {
  it('fails without creating the admin user, so the next start still shows the generated password', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nm-port-'));
    const env = { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent' };
    try {
      await expect(startNodeManagerServer({ host: '127.0.0.1', port, dataDir }, { env })).rejects.toThrow(/EADDRINUSE/);
      const next = await startNodeManagerServer({ host: '127.0.0.1', port: 0, dataDir }, { env });
      expect(next.notes.some((n) => n.includes('password (shown once)'))).toBe(true);
      await next.close();
    } finally {
      blocker.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
