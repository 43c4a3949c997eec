import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../auth/password-hasher.js';
import { loadNodeManagerConfig } from '../config.js';
import { UserRepository } from '../repositories/user-repository.js';
import { openNodeManagerDatabase } from '../server.js';
import type { PasswordSource } from './read-password.js';
import { createUsersCommand } from './users-command.js';
import { memoryUsersIo } from '../test-support/memory-users-io.js';

const env = { TRIAD_SCRYPT_COST: '16', TRIAD_LOG_LEVEL: 'silent' };

describe('triad users: passwords not given on the command line', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nm-users-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const run = async (args: string[], passwords: PasswordSource) => {
    const io = memoryUsersIo();
    await createUsersCommand(io, { env, passwords }).parseAsync(['node', 'users', '--data-dir', dataDir, ...args]);
    return io;
  };
  /** True when `password` verifies against the stored hash of `username`. */
  const verifies = async (username: string, password: string) => {
    const config = loadNodeManagerConfig(env, { dataDir, logLevel: 'silent' });
    const database = await openNodeManagerDatabase(config);
    try {
      const user = await new UserRepository(database).find(username);
      return user !== undefined && (await new PasswordHasher(config.scryptCost).verify(password, user.passwordHash));
    } finally {
      await database.close();
    }
  };
  const piped = (text: string): PasswordSource => ({ readStdin: () => Promise.resolve(Buffer.from(text)) });

  it('reads the first line of standard input, and says nothing about visibility', async () => {
    const io = await run(['add', 'dora'], piped('s3cret42\nignored\n'));
    expect(io.exitCode).toBe(0);
    expect(io.stderr.text).toBe('');
    expect(await verifies('dora', 's3cret42')).toBe(true);
    await run(['set-password', 'dora'], piped('n3wpass88\r\n'));
    expect(await verifies('dora', 'n3wpass88')).toBe(true);
  });

  it('asks twice on a terminal and refuses answers that differ', async () => {
    const answers = ['abc12345', 'abc12346'];
    const prompts: string[] = [];
    const io = await run(['add', 'erin'], {
      promptHidden: (prompt) => (prompts.push(prompt), Promise.resolve(answers.shift() ?? '')),
    });
    expect(prompts).toEqual(['Password: ', 'Repeat password: ']);
    expect(io.exitCode).toBe(1);
    expect(io.stderr.text).toContain('the two passwords differ');
    expect(await verifies('erin', 'abc12345')).toBe(false);
  });

  it('refuses empty standard input without adding anyone', async () => {
    const io = await run(['add', 'fred'], piped(''));
    expect(io.exitCode).toBe(1);
    expect(io.stderr.text).toContain('no password on standard input');
    expect(await verifies('fred', '')).toBe(false);
  });

  it('still takes a password argument, with a note that it is visible to others', async () => {
    const io = await run(['add', 'gina', 'pw987654'], piped('unused'));
    expect(io.exitCode).toBe(0);
    expect(io.stderr.text).toContain('visible to other users');
    expect(await verifies('gina', 'pw987654')).toBe(true);
  });

  it('refuses a password shorter than 8 characters with exit 2 and says how long it must be', async () => {
    const io = await run(['add', 'hana'], piped('short7x\n'));
    expect(io.exitCode).toBe(2);
    expect(io.stderr.text).toBe(
      'triad users: the password is too short (7 characters); use 8 to 128 letters and digits\n',
    );
    expect(await verifies('hana', 'short7x')).toBe(false);
    expect((await run(['add', 'hana'], piped('long8xyz\n'))).exitCode).toBe(0);
  });

  it('says what to do when the user exists or does not exist, with exit 1', async () => {
    await run(['add', 'alice'], piped('alicepass1\n'));
    const again = await run(['add', 'alice'], piped('otherpass1\n'));
    expect(again.exitCode).toBe(1);
    expect(again.stderr.text).toContain('user alice exists; use `triad users set-password alice` to change');
    expect(again.stderr.text).not.toContain('user_exists');
    expect(await verifies('alice', 'alicepass1')).toBe(true);
    const missing = await run(['set-role', 'bob', 'admin'], piped(''));
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr.text).toContain('there is no user bob; `triad users list` shows the users');
  });

  it('refuses an unknown role with exit 2 before adding anyone', async () => {
    const io = await run(['add', 'ivan', '--role', 'boss'], piped('ivanpass1\n'));
    expect(io.exitCode).toBe(2);
    expect(io.stderr.text).toContain('unknown role "boss"; choose guest, user, admin');
    expect(await verifies('ivan', 'ivanpass1')).toBe(false);
  });

  it('lists users with role and rights, and exits 2 without creating a database when there is none', async () => {
    const empty = path.join(dataDir, 'not-here');
    const io = await run(['--data-dir', empty, 'list'], piped(''));
    expect(io.exitCode).toBe(2);
    expect(io.stderr.text).toContain(`no node-manager database at ${path.join(empty, 'node-manager.sqlite')}`);
    expect(existsSync(empty)).toBe(false);
    await run(['add', 'jo', '--role', 'guest'], piped('jopass123\n'));
    const list = await run(['list'], piped(''));
    expect(list.exitCode).toBe(0);
    expect(list.stdout.text).toBe('jo\tguest\tread\n');
  });
});
