import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createTemplatesCommand, SCHEMA_FILE } from './templates-command.js';
import { memoryIo } from './test-support.js';
import { STARTER_DRIVERS } from '../starters/driver-starters.js';

async function run(args: string[], options: { cwd: string; stdin?: string }) {
  const io = memoryIo(options);
  const program = new Command('triad').exitOverride();
  program.addCommand(createTemplatesCommand(io, '0.0.0-test'));
  await program.parseAsync(['templates', ...args], { from: 'user' });
  return io;
}

const workdir = () => mkdtempSync(path.join(tmpdir(), 'triad-cli-'));

describe('triad templates init', () => {
  it.each(STARTER_DRIVERS)(
    'writes a %s starter that validates with no errors or warnings, in JSON and YAML',
    async (driver) => {
      const cwd = workdir();
      for (const file of [`${driver}.ndst.json`, `${driver}.ndst.yaml`]) {
        const init = await run(['init', '--driver', driver, '-o', file], { cwd });
        expect(init.exitCode).toBe(0);
        const validate = await run(['validate', file, '--strict'], { cwd });
        expect(validate.out()).toContain('1 valid, 0 invalid; 0 errors, 0 warnings');
        expect(validate.exitCode).toBe(0);
      }
      expect(readFileSync(path.join(cwd, `${driver}.ndst.yaml`), 'utf8')).toMatch(/^# yaml-language-server: \$schema=/);
      expect(JSON.parse(readFileSync(path.join(cwd, `${driver}.ndst.json`), 'utf8')).$schema).toMatch(
        /device-template\.schema\.json$/,
      );
    },
  );

  it('refuses to overwrite an existing file without --force (exit 2)', async () => {
    const cwd = workdir();
    writeFileSync(path.join(cwd, 'x.ndst.json'), 'keep me');
    const io = await run(['init', '--driver', 'icmp', '-o', 'x.ndst.json'], { cwd });
    expect(io.exitCode).toBe(2);
    expect(io.err()).toContain('--force');
    expect(readFileSync(path.join(cwd, 'x.ndst.json'), 'utf8')).toBe('keep me');
  });

  it('points $schema at the installed schema file relative to the output', async () => {
    const cwd = workdir();
    await run(['init', '--driver', 'mqtt', '-o', 'sub/m.ndst.json'], { cwd });
    const ref = JSON.parse(readFileSync(path.join(cwd, 'sub/m.ndst.json'), 'utf8')).$schema as string;
    expect(path.resolve(cwd, 'sub', ref)).toBe(SCHEMA_FILE);
    expect(existsSync(SCHEMA_FILE)).toBe(true);
  });
});

describe('triad templates validate', () => {
  it('exits 1 and names file:line:column for an invalid template', async () => {
    const cwd = workdir();
    writeFileSync(path.join(cwd, 'bad.ndst.json'), '{\n  "templateId": "x",\n  "templateVersion": "1.2"\n}\n');
    const io = await run(['validate', 'bad.ndst.json'], { cwd });
    expect(io.exitCode).toBe(1);
    expect(io.out()).toMatch(/bad\.ndst\.json:3:\d+: error: .*templateVersion/);
    expect(io.out()).toContain('0 valid, 1 invalid');
  });

  it('exits 2 when a named file does not exist, and still reports the others', async () => {
    const cwd = workdir();
    await run(['init', '--driver', 's7', '-o', 'ok.ndst.json'], { cwd });
    const io = await run(['validate', 'ok.ndst.json', 'missing.ndst.json'], { cwd });
    expect(io.exitCode).toBe(2);
    expect(io.err()).toContain('missing.ndst.json');
    expect(io.out()).toContain('1 file checked: 1 valid');
  });

  it('reads standard input with "-" and expands globs', async () => {
    const cwd = workdir();
    await run(['init', '--driver', 'snmp', '-o', 'a.ndst.yaml'], { cwd });
    await run(['init', '--driver', 'pnio', '-o', 'b.ndst.json'], { cwd });
    const glob = await run(['validate', '*.ndst.*', '--format', 'json'], { cwd });
    const report = JSON.parse(glob.out());
    expect(report.summary).toMatchObject({ files: 2, valid: 2 });
    const stdin = await run(['validate', '-'], { cwd, stdin: readFileSync(path.join(cwd, 'b.ndst.json'), 'utf8') });
    expect(stdin.exitCode).toBe(0);
  });

  it('writes SARIF 2.1.0 and JUnit XML', async () => {
    const cwd = workdir();
    writeFileSync(path.join(cwd, 'bad.ndst.json'), '{"templateId": "no dots."}');
    const sarif = JSON.parse((await run(['validate', 'bad.ndst.json', '-f', 'sarif'], { cwd })).out());
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results.length).toBeGreaterThan(0);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('bad.ndst.json');
    const junit = (await run(['validate', 'bad.ndst.json', '-f', 'junit'], { cwd })).out();
    expect(junit).toMatch(/<testcase classname="device-templates" name="bad.ndst.json">\s*<failure/);
  });
});

describe('triad templates schema', () => {
  it('prints the draft-07 schema', async () => {
    const io = await run(['schema'], { cwd: workdir() });
    expect(JSON.parse(io.out()).$schema).toBe('http://json-schema.org/draft-07/schema#');
  });
});
