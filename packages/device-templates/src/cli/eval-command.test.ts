import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { addEvalCommand } from './eval-command.js';
import { memoryIo } from './test-support/memory-io.js';
import { evaluation, read, set, table, template } from '../pipeline/test-support/template-builders.js';
import type { DeviceTemplate } from '../generated/device-template.generated.js';

function switchTemplate(): DeviceTemplate {
  return template(
    set('system', [
      read('packetLoss', {
        convConfig: { expression: 'datapoint.value * 100' },
        alertConfig: { evaluations: [evaluation(401, 'datapoint.value > 10', { text: 'Packet loss above 10 %' })] },
      }),
      read('name', { convConfig: { expression: 'datapoint.value.toUpperCase()' } }),
    ]),
    table(
      'ifTable',
      'tableDynamic',
      ['ifIndex'],
      [
        read('ifIndex'),
        read('ifOperStatus', {
          valueMapConfig: {
            map: [
              { key: 1, value: 'up' },
              { key: 2, value: 'down' },
            ],
          },
        }),
      ],
    ),
  );
}

const workdirs: string[] = [];
afterAll(() => {
  for (const dir of workdirs) rmSync(dir, { recursive: true, force: true });
});

function workdir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'triad-eval-'));
  workdirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

async function run(args: string[], options: { cwd: string; stdin?: string; stdinChunks?: string[] }) {
  const io = memoryIo(options);
  const templates = new Command('templates').exitOverride();
  const chunks = options.stdinChunks;
  addEvalCommand(
    templates,
    io,
    chunks
      ? {
          stdin: () => Readable.from(chunks),
        }
      : {},
  );
  const program = new Command('triad').exitOverride().addCommand(templates);
  await program.parseAsync(['templates', 'eval', ...args], { from: 'user' });
  return io;
}

const lines = (...updates: unknown[]) => updates.map((u) => JSON.stringify(u)).join('\n') + '\n';
const loss = (rawValue: unknown) => ({ datapointSetId: 'system', datapointId: 'packetLoss', rawValue });

describe('triad templates eval', () => {
  it('prints values and raise/clear events as text for JSON Lines input', async () => {
    const cwd = workdir({
      't.ndst.json': JSON.stringify(switchTemplate()),
      'u.jsonl': lines(loss(0.05), loss(0.2), loss(0.01)),
    });
    const io = await run(['t.ndst.json', '--values', 'u.jsonl'], { cwd });
    expect(io.err()).toBe('');
    expect(io.exitCode).toBe(0);
    expect(io.out().trim().split('\n')).toEqual([
      'VALUE system/packetLoss = 5',
      'RAISE 401 warning system/packetLoss: Packet loss above 10 % (value 20)',
      'VALUE system/packetLoss = 20',
      'CLEAR 401 warning system/packetLoss: Packet loss above 10 % (value 1)',
      'VALUE system/packetLoss = 1',
    ]);
  });

  it('prints one JSON object per value and event with --format json, and reads a JSON array', async () => {
    const updates = [
      loss(0.5),
      {
        datapointSetId: 'ifTable',
        rows: [
          [
            { datapointId: 'ifIndex', rawValue: 3 },
            { datapointId: 'ifOperStatus', rawValue: 2 },
          ],
        ],
      },
    ];
    const cwd = workdir({
      't.ndst.json': JSON.stringify(switchTemplate()),
      'u.json': JSON.stringify(updates, null, 2),
    });
    const io = await run(['t.ndst.json', '--values', 'u.json', '--format', 'json', '--origin', 'sw-7'], { cwd });
    const objects = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects.map((o) => [o['type'], o['datapointId'], o['origin']])).toEqual([
      ['alarm-raised', 'packetLoss', 'sw-7'],
      ['value', 'packetLoss', 'sw-7'],
      ['value', 'ifIndex', 'sw-7'],
      ['value', 'ifOperStatus', 'sw-7'],
    ]);
    expect(objects[0]).toMatchObject({ severity: 401, level: 'warning', value: 50 });
    expect(objects[3]).toMatchObject({ tableIndex: 3, value: 'down' });
    expect(io.exitCode).toBe(0);
  });

  it('reports malformed lines with their line number, skips them and exits 1 at the end', async () => {
    const cwd = workdir({ 't.ndst.json': JSON.stringify(switchTemplate()) });
    const stdin = lines(loss(0.01)) + '{not json\n' + lines({ datapointSetId: 'nope', datapointId: 'x' }, loss(0.02));
    const io = await run(['t.ndst.json', '--values', '-'], { cwd, stdin });
    expect(io.err()).toContain('<stdin>:2: not valid JSON');
    expect(io.err()).toContain(
      "<stdin>:3: rejected: the template has no datapoint set 'nope' [DT_ERR_PIPE_UPDATE_SET_UNKNOWN]",
    );
    expect(io.out().trim().split('\n')).toEqual(['VALUE system/packetLoss = 1', 'VALUE system/packetLoss = 2']);
    expect(io.exitCode).toBe(1);
  });

  it('streams standard input chunk by chunk', async () => {
    const cwd = workdir({ 't.ndst.json': JSON.stringify(switchTemplate()) });
    const text = lines(loss(0.01), loss(0.5));
    const io = await run(['t.ndst.json', '--values', '-'], { cwd, stdinChunks: [text.slice(0, 30), text.slice(30)] });
    expect(io.out()).toContain('RAISE 401 warning system/packetLoss');
    expect(io.exitCode).toBe(0);
  });

  it('prints evaluation errors and exits 1, going on with the next updates', async () => {
    const cwd = workdir({
      't.ndst.json': JSON.stringify(switchTemplate()),
      'u.jsonl': lines({ datapointSetId: 'system', datapointId: 'name', rawValue: 5 }, loss(0.01)),
    });
    const io = await run(['t.ndst.json', '--values', 'u.jsonl'], { cwd });
    expect(io.out().trim().split('\n')).toEqual([
      'ERROR system/name conversion: toUpperCase() needs a string, got number [DT_ERR_EVAL_METHOD_RECEIVER]',
      'VALUE system/packetLoss = 1',
    ]);
    expect(io.exitCode).toBe(1);
  });

  it('exits 1 with positions for an invalid template or one that cannot be evaluated', async () => {
    const broken = switchTemplate();
    broken.datapointSets[0]!.datapoints[0]!.unitsConfig = { from: 'kw', to: 'W' };
    const invalid = { ...switchTemplate(), templateVersion: 'one' };
    const cwd = workdir({
      'units.ndst.json': JSON.stringify(broken, null, 2),
      'invalid.ndst.json': JSON.stringify(invalid, null, 2),
      'u.jsonl': lines(loss(1)),
    });
    const units = await run(['units.ndst.json', '--values', 'u.jsonl'], { cwd });
    expect(units.exitCode).toBe(1);
    expect(units.err()).toMatch(
      /units\.ndst\.json:\d+:\d+: error: the unit 'kw' .* \[DT_ERR_PIPE_BUILD_UNIT_UNKNOWN\]/,
    );
    expect(units.out()).toBe('');
    const expression = switchTemplate();
    expression.datapointSets[0]!.datapoints[1]!.convConfig = { expression: 'datapoint.value.toUpperCase() + nope' };
    const text = JSON.stringify(expression, null, 2);
    writeFileSync(path.join(cwd, 'expr.ndst.json'), text);
    const expr = await run(['expr.ndst.json', '--values', 'u.jsonl'], { cwd });
    expect(expr.exitCode).toBe(1);
    // The validator catches it first (an expression that does not compile makes the template
    // invalid); either way the position is inside the expression.
    const [, line, column] = /expr\.ndst\.json:(\d+):(\d+): error: .*'nope'/.exec(expr.err()) ?? [];
    expect(text.split('\n')[Number(line) - 1]!.slice(Number(column) - 1)).toMatch(/^nope/);
    const bad = await run(['invalid.ndst.json', '--values', 'u.jsonl'], { cwd });
    expect(bad.exitCode).toBe(1);
    expect(bad.err()).toMatch(/invalid\.ndst\.json:\d+:\d+: error: .*templateVersion/);
  });

  it('exits 2 when a file cannot be read', async () => {
    const cwd = workdir({ 't.ndst.json': JSON.stringify(switchTemplate()) });
    const missingValues = await run(['t.ndst.json', '--values', 'missing.jsonl'], { cwd });
    expect(missingValues.exitCode).toBe(2);
    expect(missingValues.err()).toContain('cannot read missing.jsonl: no such file');
    expect((await run(['nope.ndst.json', '--values', 'missing.jsonl'], { cwd })).exitCode).toBe(2);
  });

  it('documents the update shapes and an example in --help', () => {
    const io = memoryIo({ cwd: '.' });
    const templates = new Command('templates').exitOverride();
    addEvalCommand(templates, io);
    let help = '';
    templates.commands[0]!.configureOutput({ writeOut: (s) => (help += s) });
    expect(() => templates.parse(['eval', '--help'], { from: 'user' })).toThrow();
    expect(help).toContain('--values <file>');
    expect(help).toContain('triad templates eval switch.ndst.yaml --values -');
    expect(help).toContain('"removed": true');
  });
});
