import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { createTemplatesCommand, SCHEMA_FILE } from './templates-command.js';
import { memoryIo } from './test-support/memory-io.js';
import { STARTER_DRIVERS } from '../starters/driver-starters.js';
import type { ValidationSummary } from './reporters.js';

/** The parts of a SARIF log these tests read. */
interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { informationUri: string; rules: { id: string; helpUri: string }[] } };
    originalUriBaseIds: { SRCROOT: { uri: string } };
    results: {
      ruleId: string;
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
    }[];
  }[];
}

/** A document that names its JSON Schema. */
interface WithSchema {
  $schema: string;
}

async function run(args: string[], options: { cwd: string; stdin?: string }) {
  const io = memoryIo(options);
  const program = new Command('triad').exitOverride();
  program.addCommand(createTemplatesCommand(io, '0.0.0-test'));
  await program.parseAsync(['templates', ...args], { from: 'user' });
  return io;
}

const workdirs: string[] = [];
const workdir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'triad-cli-'));
  workdirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of workdirs) rmSync(dir, { recursive: true, force: true });
});

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
      // NetinDS's schema refuses any root $schema: the JSON starter carries none.
      expect(JSON.parse(readFileSync(path.join(cwd, `${driver}.ndst.json`), 'utf8'))).not.toHaveProperty('$schema');
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

  it('points the YAML modeline at the installed schema file relative to the output', async () => {
    const cwd = workdir();
    await run(['init', '--driver', 'mqtt', '-o', 'sub/m.ndst.yaml'], { cwd });
    const [first] = readFileSync(path.join(cwd, 'sub/m.ndst.yaml'), 'utf8').split('\n');
    const ref = /^# yaml-language-server: \$schema=(.+)$/.exec(first ?? '')?.[1] ?? '';
    expect(path.resolve(cwd, 'sub', ref)).toBe(SCHEMA_FILE);
    expect(existsSync(SCHEMA_FILE)).toBe(true);
  });

  it('writes JSON that the published NetinDS root accepts, and $schema only when --schema asks', async () => {
    const cwd = workdir();
    await run(['init', '--driver', 'snmp', '-o', 'plain.ndst.json'], { cwd });
    const plain = JSON.parse(readFileSync(path.join(cwd, 'plain.ndst.json'), 'utf8')) as Record<string, unknown>;
    // The published root is closed over exactly these keys.
    const publishedRootKeys = [
      'schemaVersion',
      'origin',
      'templateId',
      'templateVersion',
      'description',
      'rangerFilter',
      'alias',
      'originTypes',
      'datapointSets',
      'representation',
    ];
    expect(Object.keys(plain).filter((key) => !publishedRootKeys.includes(key))).toEqual([]);
    const url = 'https://example.com/device-template.schema.json';
    await run(['init', '--driver', 'snmp', '--schema', url, '-o', 'with.ndst.json'], { cwd });
    expect((JSON.parse(readFileSync(path.join(cwd, 'with.ndst.json'), 'utf8')) as WithSchema).$schema).toBe(url);
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
    const report = JSON.parse(glob.out()) as { summary: ValidationSummary };
    expect(report.summary).toMatchObject({ files: 2, valid: 2 });
    const stdin = await run(['validate', '-'], { cwd, stdin: readFileSync(path.join(cwd, 'b.ndst.json'), 'utf8') });
    expect(stdin.exitCode).toBe(0);
  });

  it('writes SARIF 2.1.0 and JUnit XML', async () => {
    const cwd = workdir();
    writeFileSync(path.join(cwd, 'bad.ndst.json'), '{"templateId": "no dots."}');
    const sarif = JSON.parse((await run(['validate', 'bad.ndst.json', '-f', 'sarif'], { cwd })).out()) as SarifLog;
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results.length).toBeGreaterThan(0);
    expect(sarif.runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation).toEqual({
      uri: 'bad.ndst.json',
      uriBaseId: 'SRCROOT',
    });
    const junit = (await run(['validate', 'bad.ndst.json', '-f', 'junit'], { cwd })).out();
    expect(junit).toMatch(/<testcase classname="device-templates" name="bad.ndst.json">\s*<failure/);
  });
});

describe('triad templates validate --quiet', () => {
  it('leaves out the valid files but keeps every problem and the summary', async () => {
    const cwd = workdir();
    await run(['init', '--driver', 'snmp', '-o', 'a.ndst.yaml'], { cwd });
    await run(['init', '--driver', 'icmp', '-o', 'b.ndst.json'], { cwd });
    writeFileSync(path.join(cwd, 'c.ndst.json'), '{"templateId": "no dots."}');
    const loud = await run(['validate', 'a.ndst.yaml', 'b.ndst.json', 'c.ndst.json'], { cwd });
    expect(loud.out()).toContain('a.ndst.yaml: valid');
    for (const flag of ['-q', '--quiet']) {
      const quiet = await run(['validate', 'a.ndst.yaml', 'b.ndst.json', 'c.ndst.json', flag], { cwd });
      expect(quiet.exitCode).toBe(1);
      expect(quiet.out()).not.toContain(': valid');
      expect(quiet.out()).toMatch(/^c\.ndst\.json:\d+:\d+: error: /m);
      expect(quiet.out()).toContain('3 files checked: 2 valid, 1 invalid');
      // Only the valid-file lines go.
      const dropped = loud
        .out()
        .split('\n')
        .filter((line) => !quiet.out().split('\n').includes(line));
      expect(dropped).toEqual(['a.ndst.yaml: valid', 'b.ndst.json: valid']);
    }
  });
});

describe('triad templates validate --format sarif', () => {
  /** The SARIF 2.1.0 schema of @microsoft/jest-sarif (draft-04; ajv 8 reads it as draft-07, `id` as `$id`). */
  const validateSarif = (() => {
    const file = createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
    const {
      $schema: _draft,
      id,
      ...schema
    } = JSON.parse(readFileSync(file, 'utf8')) as {
      $schema: string;
      id: string;
    } & Record<string, unknown>;
    // Without the u flag: one pattern of the schema (`language`) has a stray `]` that u mode rejects.
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    // A CommonJS module: its plugin is the `default` member of what Node's ESM import gives.
    ajvFormats.default(ajv);
    return ajv.compile({ ...schema, $id: id });
  })();

  it('validates against the SARIF 2.1.0 schema, with absolute documentation URIs that exist', async () => {
    const cwd = workdir();
    mkdirSync(path.join(cwd, 'with space'));
    writeFileSync(path.join(cwd, 'with space', 'bad.ndst.json'), '{"templateId": "no dots."}');
    await run(['init', '--driver', 'mqtt', '-o', 'ok.ndst.json'], { cwd });
    const stdin = readFileSync(path.join(cwd, 'with space', 'bad.ndst.json'), 'utf8');
    const io = await run(['validate', 'with space/bad.ndst.json', 'ok.ndst.json', '-', '-f', 'sarif'], { cwd, stdin });
    expect(io.exitCode).toBe(1);
    const log = JSON.parse(io.out()) as SarifLog;
    const valid = validateSarif(log);
    expect(validateSarif.errors ?? []).toEqual([]);
    expect(valid).toBe(true);

    const run0 = log.runs[0]!;
    const docs = [run0.tool.driver.informationUri, ...run0.tool.driver.rules.map((r) => r.helpUri)];
    expect(run0.tool.driver.rules.length).toBeGreaterThan(0);
    const errorsDoc = readFileSync(fileURLToPath(run0.tool.driver.rules[0]!.helpUri), 'utf8');
    for (const uri of docs) {
      const url = new URL(uri); // throws on a relative URI
      expect(url.protocol).toBe('file:');
      expect(existsSync(fileURLToPath(url))).toBe(true);
      if (url.hash) expect(errorsDoc).toContain(`id="${url.hash.slice(1)}"`);
    }
    expect(fileURLToPath(run0.originalUriBaseIds.SRCROOT.uri)).toBe(`${cwd}/`);
    const locations = run0.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri);
    expect(new Set(locations)).toEqual(new Set(['with%20space/bad.ndst.json', 'stdin']));
  });
});

describe('triad templates schema', () => {
  it('prints the draft-07 schema', async () => {
    const io = await run(['schema'], { cwd: workdir() });
    expect((JSON.parse(io.out()) as WithSchema).$schema).toBe('http://json-schema.org/draft-07/schema#');
  });
});
