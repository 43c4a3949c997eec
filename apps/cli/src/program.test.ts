import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStarterTemplate } from '@triad/device-templates';
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

  it('resolves MIB names in SNMP addresses when validating, from --mib-dirs and the shipped modules', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-cli-mibs-'));
    try {
      // A module of our own, read only through --mib-dirs.
      await writeFile(
        path.join(dir, 'TRIAD-CLI-MIB.txt'),
        [
          'TRIAD-CLI-MIB DEFINITIONS ::= BEGIN',
          'IMPORTS OBJECT-TYPE, enterprises, Integer32 FROM SNMPv2-SMI;',
          'triadCli OBJECT IDENTIFIER ::= { enterprises 64999 }',
          'triadCliLevel OBJECT-TYPE SYNTAX Integer32 MAX-ACCESS read-only STATUS current',
          '    DESCRIPTION "a level" ::= { triadCli 1 }',
          'END',
        ].join('\n'),
      );
      // The SNMP starter (valid, no warnings) with its first address replaced.
      const template = (address: string) => {
        const starter = createStarterTemplate('snmp', { templateId: 'mib-names' }) as {
          datapointSets: { datapoints: { addressConfig: { originAddress: string } }[] }[];
        };
        starter.datapointSets[0]!.datapoints[0]!.addressConfig.originAddress = address;
        return JSON.stringify(starter);
      };
      const known = path.join(dir, 'known.ndst.json');
      const unknown = path.join(dir, 'unknown.ndst.json');
      const own = path.join(dir, 'own.ndst.json');
      await writeFile(known, template('IF-MIB::ifDescr.1'));
      await writeFile(unknown, template('IF-MIB::ifNoSuchColumn.1'));
      await writeFile(own, template('TRIAD-CLI-MIB::triadCliLevel.0'));
      const run = async (args: string[]) => {
        const m = memory();
        const code = await runCli(['templates', 'validate', '--format', 'json', ...args], m.io);
        return { code, out: m.out() };
      };
      expect((await run([known])).code).toBe(0);
      const refused = await run([unknown]);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('DT_ERR_SEM_SNMP_NAME_UNKNOWN');
      expect(refused.out).toContain('ifNoSuchColumn');
      // Without the module's directory its names are unknown; with it they resolve.
      expect((await run([own])).out).toContain('DT_ERR_SEM_SNMP_NAME_UNKNOWN');
      expect((await run(['--mib-dirs', dir, own])).code).toBe(0);
      // --no-mibs checks the form only.
      expect((await run(['--no-mibs', unknown])).code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
