import { describe, expect, it } from 'vitest';
import { runCli, VERSION } from './program.js';

function memory() {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      cwd: process.cwd(),
      exitCode: 0,
      readStdin: () => Promise.resolve(new Uint8Array()),
    },
    out: () => out,
    err: () => err,
  };
}

describe('triad', () => {
  it('prints the version with --version and exits 0', async () => {
    const m = memory();
    expect(await runCli(['--version'], m.io)).toBe(0);
    expect(m.out().trim()).toBe(VERSION);
  });

  it.each([
    [[]],
    [['serve']],
    [['templates']],
    [['templates', 'validate']],
    [['templates', 'init']],
    [['templates', 'schema']],
    [['shops']],
    [['shops', 'add']],
    [['shops', 'list']],
    [['shops', 'update']],
    [['shops', 'remove']],
  ])('answers --help for %j with exit 0', async (args) => {
    const m = memory();
    expect(await runCli([...args, '--help'], m.io)).toBe(0);
    expect(m.out()).toContain('Usage: triad');
  });

  it('exits 2 on an unknown command or option', async () => {
    const m = memory();
    expect(await runCli(['frobnicate'], m.io)).toBe(2);
    expect(m.err()).toContain("unknown command 'frobnicate'");
    expect(await runCli(['templates', 'validate', '--no-such-flag', 'x'], memory().io)).toBe(2);
  });

  it('refuses --port with more than one service and names an unknown service', async () => {
    const a = memory();
    expect(await runCli(['serve', '--port', '9999'], a.io)).toBe(2);
    expect(a.err()).toContain('--port needs exactly one service');
    const b = memory();
    expect(await runCli(['serve', 'nope'], b.io)).toBe(2);
    expect(b.err()).toContain('unknown service nope');
  });

  it('refuses a --port-base that leaves no room for every service, and an unknown --log-format', async () => {
    const a = memory();
    expect(await runCli(['serve', '--port-base', '65534'], a.io)).toBe(2);
    expect(a.err()).toContain('a port base is an integer from 1 to 65533');
    const b = memory();
    expect(await runCli(['serve', '--log-format', 'xml'], b.io)).toBe(2);
    expect(b.err()).toContain('Allowed choices are pretty, json');
  });

  it('refuses a --database-read-url that is not a list of PostgreSQL URLs', async () => {
    const m = memory();
    expect(await runCli(['serve', 'content-api', '--database-read-url', 'postgres://a/db,mysql://b/db'], m.io)).toBe(2);
    expect(m.err()).toContain('each replica is a postgres:// or postgresql:// URL');
  });

  it('exits 2 when init lacks the mandatory --driver', async () => {
    const m = memory();
    expect(await runCli(['templates', 'init'], m.io)).toBe(2);
    expect(m.err()).toContain('--driver');
  });
});
