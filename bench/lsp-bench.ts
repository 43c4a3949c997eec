/**
 * The language server (`triad templates lsp --stdio`, run from the sources in a child process, as
 * an editor would start it) on the generated 5,000-datapoint template: milliseconds from sending
 * `textDocument/didChange` (one incremental edit of one character of a datapoint's enum value) to receiving the
 * `publishDiagnostics` for that version, over 100 edits, each waited for. Includes the server's
 * debounce (25 ms), a full validation and the conversion of problems to diagnostics. Edits
 * alternate between a valid and an invalid `originAccessType` (one error), so half the publications carry a
 * diagnostic. Aim (issue 16): diagnostics within 300 ms of a change. Beside it, in this process
 * after the server has stopped, `validateSource` alone on the same text: the validator's share.
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

const rows: (string | number)[][] = [];
for (const format of ['json', 'yaml'] as const) {
  const text = texts[format];
  const uri = `file:///bench/large.ndst.${format}`;
  // The last character of the last datapoint's originAccessType ('read-only'): 'y' is valid, 'x' not.
  const at = text.lastIndexOf('read-only') + 'read-onl'.length;
  if (at < 'read-onl'.length) throw new Error('no originAccessType read-only in the generated template');
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
    const invalid = version % 2 === 0;
    const change = {
      range: { start: { line, character }, end: { line, character: character + 1 } },
      text: invalid ? 'x' : 'y',
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
    format.toUpperCase(),
    (Buffer.byteLength(text) / 1024 / 1024).toFixed(1),
    openMs,
    median(samples),
    percentile(samples, 99),
    samples[samples.length - 1]!,
    `${errors}/${samples.length}`,
  ]);
  server.notify('textDocument/didClose', { textDocument: { uri } });
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
