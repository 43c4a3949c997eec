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
    const io = {
      stdout: {
        text: '',
        write(t: string) {
          this.text += t;
        },
      },
      stderr: {
        text: '',
        write(t: string) {
          this.text += t;
        },
      },
      exitCode: 0,
    };
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
  const piped = (text: string): PasswordSource => ({ readStdin: async () => Buffer.from(text) });

  it('reads the first line of standard input, and says nothing about visibility', async () => {
    const io = await run(['add', 'dora'], piped('s3cret42\nignored\n'));
    expect(io.exitCode).toBe(0);
    expect(io.stderr.text).toBe('');
    expect(await verifies('dora', 's3cret42')).toBe(true);
    await run(['set-password', 'dora'], piped('n3wpass\r\n'));
    expect(await verifies('dora', 'n3wpass')).toBe(true);
  });

  it('asks twice on a terminal and refuses answers that differ', async () => {
    const answers = ['abc123', 'abc124'];
    const prompts: string[] = [];
    const io = await run(['add', 'erin'], {
      promptHidden: async (prompt) => (prompts.push(prompt), answers.shift() ?? ''),
    });
    expect(prompts).toEqual(['Password: ', 'Repeat password: ']);
    expect(io.exitCode).toBe(1);
    expect(io.stderr.text).toContain('the two passwords differ');
    expect(await verifies('erin', 'abc123')).toBe(false);
  });

  it('refuses empty standard input without adding anyone', async () => {
    const io = await run(['add', 'fred'], piped(''));
    expect(io.exitCode).toBe(1);
    expect(io.stderr.text).toContain('no password on standard input');
    expect(await verifies('fred', '')).toBe(false);
  });

  it('still takes a password argument, with a note that it is visible to others', async () => {
    const io = await run(['add', 'gina', 'pw9876'], piped('unused'));
    expect(io.exitCode).toBe(0);
    expect(io.stderr.text).toContain('visible to other users');
    expect(await verifies('gina', 'pw9876')).toBe(true);
  });
});
