/**
 * The language server (`triad templates lsp --stdio`, run from the sources in a child process, as
 * an editor would start it) on the generated 5,000-datapoint template: milliseconds from sending
 * `textDocument/didChange` to receiving the `publishDiagnostics` for that version, over 100 edits
 * of one character of the last datapoint, each waited for. Two kinds of edit: in a string value
 * (the server patches the loaded document, then runs the checks) and in a number (it loads the
 * text in full). Includes the server's debounce (25 ms) and the conversion of problems to
 * diagnostics. String edits alternate between a valid and an invalid `originAccessType` (one
 * error). Aim (issue 16): diagnostics within 300 ms of a change. Beside it, in this process after
 * the server has stopped, `validateSource` alone on the same text.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jsYaml from 'js-yaml';
import { validateSource } from '@triad/device-templates';
import { generateLargeTemplate } from './generate-large-template.js';
import { median, percentile, printTable, time } from './bench-utils.js';

const DATAPOINTS = 5_000;
const EDITS = Number(process.env['BENCH_EDITS'] ?? 100);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Message {
  readonly id?: number;
  readonly method?: string;
  readonly params?: { readonly uri?: string; readonly version?: number; readonly diagnostics?: unknown[] };
}

/** A bare JSON-RPC client over the child's stdio (Content-Length framing), enough for this bench. */
function startServer() {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(root, 'apps/cli/src/bin.ts'), 'templates', 'lsp', '--stdio'],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let buffer = Buffer.alloc(0);
  const listeners = new Set<(message: Message) => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as Message;
      buffer = buffer.subarray(headerEnd + 4 + length);
      for (const listener of listeners) listener(message);
    }
  });
  let nextId = 1;
  const send = (body: object) => {
    const json = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...body }));
    child.stdin.write(`Content-Length: ${json.length}\r\n\r\n`);
    child.stdin.write(json);
  };
  const waitFor = (match: (message: Message) => boolean) =>
    new Promise<Message>((resolve) => {
      const listener = (message: Message) => {
        if (!match(message)) return;
        listeners.delete(listener);
        resolve(message);
      };
      listeners.add(listener);
    });
  return {
    notify: (method: string, params: object) => send({ method, params }),
    request: (method: string, params: object) => {
      const id = nextId++;
      const reply = waitFor((m) => m.id === id && m.method === undefined);
      send({ id, method, params });
      return reply;
    },
    diagnostics: (uri: string, version: number) =>
      waitFor(
        (m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === uri && m.params.version === version,
      ),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      send({ id: nextId++, method: 'shutdown' });
      send({ method: 'exit' });
      await exited;
    },
  };
}

const template = generateLargeTemplate(DATAPOINTS);
const texts = {
  json: JSON.stringify(template, null, 2),
  yaml: jsYaml.dump(template, { lineWidth: 120, noRefs: true }),
};
const server = startServer();
await server.request('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
server.notify('initialized', {});

/**
 * The edits measured: one character toggled at `at` between `valid` and `invalid`. An edit inside
 * a string value patches the loaded document; one in a number makes the server load in full.
 */
const EDIT_KINDS = [
  // The last datapoint's originAccessType 'read-only': 'y' is valid, 'x' not (one error).
  { name: 'string value', find: 'read-only', skip: { json: 8, yaml: 8 }, valid: 'y', invalid: 'x' },
  // The last datapoint's facility (4999 % 16 = 7): 7 and 6 are both valid, the number is reparsed.
  { name: 'number (full load)', find: 'facility', skip: { json: 11, yaml: 10 }, valid: '7', invalid: '6' },
] as const;

const rows: (string | number)[][] = [];
for (const format of ['json', 'yaml'] as const) {
  for (const kind of EDIT_KINDS) {
    const text = texts[format];
    const uri = `file:///bench/${kind.name.split(' ')[0]}/large.ndst.${format}`;
    const found = text.lastIndexOf(kind.find);
    if (found < 0) throw new Error(`no ${kind.find} in the generated template`);
    const at = found + kind.skip[format];
    const line = text.slice(0, at).split('\n').length - 1;
    const character = at - text.lastIndexOf('\n', at - 1) - 1;
    const opened = server.diagnostics(uri, 1);
    let start = performance.now();
    server.notify('textDocument/didOpen', { textDocument: { uri, languageId: format, version: 1, text } });
    await opened;
    const openMs = performance.now() - start;
    const samples: number[] = [];
    let errors = 0;
    // Warm-up edits, then the measured ones.
    for (let version = 2; version < 2 + 5 + EDITS; version++) {
      const change = {
        range: { start: { line, character }, end: { line, character: character + 1 } },
        text: version % 2 === 0 ? kind.invalid : kind.valid,
      };
      const published = server.diagnostics(uri, version);
      start = performance.now();
      server.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
      const message = await published;
      if (version >= 7) {
        samples.push(performance.now() - start);
        if ((message.params?.diagnostics?.length ?? 0) > 0) errors++;
      }
    }
    samples.sort((a, b) => a - b);
    rows.push([
      `${format.toUpperCase()}: ${kind.name}`,
      (Buffer.byteLength(text) / 1024 / 1024).toFixed(1),
      openMs,
      median(samples),
      percentile(samples, 99),
      samples[samples.length - 1]!,
      `${errors}/${samples.length}`,
    ]);
    server.notify('textDocument/didClose', { textDocument: { uri } });
  }
}
await server.stop();

for (const format of ['json', 'yaml'] as const) {
  const samples = time(() => validateSource(texts[format], { format }), 20);
  rows.push([
    `${format.toUpperCase()}: validateSource alone`,
    (Buffer.byteLength(texts[format]) / 1024 / 1024).toFixed(1),
    '',
    median(samples),
    percentile(samples, 99),
    samples[samples.length - 1]!,
    '',
  ]);
}

console.log(`template: ${DATAPOINTS} datapoints; ${EDITS} edits each, one at a time; times in ms`);
printTable(['format', 'MB', 'didOpen', 'change p50', 'change p99', 'max', 'with errors'], rows);
