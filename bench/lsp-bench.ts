/**
 * The language server (`triad templates lsp --stdio`, run from the sources in a child process, as
 * an editor would start it) on the generated 5,000-datapoint template: milliseconds from sending
 * `textDocument/didChange` to receiving the `publishDiagnostics` for that version, over 100 edits
 * of the last datapoint, each waited for, alternately making the template invalid (one error) and
 * valid again: value edits of one character (in a string, in a number) and structural ones (a
 * line added and removed, the whole datapoint copied and removed). Includes the server's
 * debounce (25 ms) and the conversion of problems to diagnostics. Aim (issue 16): diagnostics
 * within 300 ms of a change. Beside it, in this process after the server has stopped,
 * `validateSource` alone on the same text.
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

/** The text of the line that holds `offset`, and where it starts. */
function lineAt(text: string, offset: number): { start: number; text: string } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return { start, text: text.slice(start, end < 0 ? text.length : end + 1) };
}

/** An edit measured: the text at `at` goes back and forth between `valid` and `invalid`. */
interface Toggle {
  readonly at: number;
  readonly valid: string;
  readonly invalid: string;
}

/**
 * The edits measured, each on the last datapoint. Value edits change one character: in a string
 * (`originAccessType` 'read-only': 'y' is valid, 'x' not, one error) and in a number (`facility`
 * 7 and 6, both valid). Structural edits add a line and remove it again (an unknown key `unit`:
 * one error), and copy the whole datapoint before itself and remove the copy again (its
 * `datapointId` twice: one error).
 */
const EDIT_KINDS: readonly { readonly name: string; readonly toggle: (text: string, format: Format) => Toggle }[] = [
  {
    name: 'value: string',
    toggle: (text) => ({ at: text.lastIndexOf('read-only') + 8, valid: 'y', invalid: 'x' }),
  },
  {
    name: 'value: number',
    toggle: (text, format) => ({
      at: text.lastIndexOf('facility') + (format === 'json' ? 11 : 10),
      valid: '7',
      invalid: '6',
    }),
  },
  {
    name: 'structure: a line',
    toggle: (text, format) => {
      const line = lineAt(text, text.lastIndexOf('originAccessType'));
      const indent = /^ */.exec(line.text)?.[0] ?? '';
      return {
        at: line.start,
        valid: '',
        invalid: format === 'json' ? `${indent}"unit": "kW",\n` : `${indent}unit: kW\n`,
      };
    },
  },
  {
    name: 'structure: a datapoint',
    toggle: (text, format) => {
      const line = lineAt(text, text.lastIndexOf(format === 'json' ? '"commonConfig"' : '- commonConfig'));
      if (format === 'yaml') {
        // The datapoint's lines: up to the next line as far left as its dash, or the end.
        const column = line.text.indexOf('-');
        const next = new RegExp(`\\n {0,${column}}\\S`, 'g');
        next.lastIndex = line.start + line.text.length - 1;
        const end = next.exec(text)?.index;
        return {
          at: line.start,
          valid: '',
          invalid: text.slice(line.start, end === undefined ? text.length : end + 1),
        };
      }
      // JSON: the datapoint object is the line before `"commonConfig"`, closed at the same indentation.
      const open = lineAt(text, line.start - 1);
      const indent = /^ */.exec(open.text)?.[0] ?? '';
      const close = text.indexOf(`\n${indent}}`, open.start) + indent.length + 2;
      return { at: open.start, valid: '', invalid: `${text.slice(open.start, close)},\n` };
    },
  },
];

type Format = 'json' | 'yaml';

/** The LSP position of `offset` in `text`. */
function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return { line, character: offset - text.lastIndexOf('\n', offset - 1) - 1 };
}

const rows: (string | number)[][] = [];
for (const format of ['json', 'yaml'] as const) {
  for (const kind of EDIT_KINDS) {
    let text = texts[format];
    const uri = `file:///bench/${kind.name.replace(/\W+/g, '-')}/large.ndst.${format}`;
    const toggle = kind.toggle(text, format);
    if (toggle.at < 0 || text.slice(toggle.at, toggle.at + toggle.valid.length) !== toggle.valid)
      throw new Error(`${format} ${kind.name}: the edit's place was not found in the generated template`);
    const opened = server.diagnostics(uri, 1);
    let start = performance.now();
    server.notify('textDocument/didOpen', { textDocument: { uri, languageId: format, version: 1, text } });
    await opened;
    const openMs = performance.now() - start;
    const samples: number[] = [];
    let errors = 0;
    // Warm-up edits, then the measured ones; even versions make the text invalid, odd ones mend it.
    for (let version = 2; version < 2 + 5 + EDITS; version++) {
      const [from, to] = version % 2 === 0 ? [toggle.valid, toggle.invalid] : [toggle.invalid, toggle.valid];
      const change = {
        range: { start: positionAt(text, toggle.at), end: positionAt(text, toggle.at + from.length) },
        text: to,
      };
      text = text.slice(0, toggle.at) + to + text.slice(toggle.at + from.length);
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
