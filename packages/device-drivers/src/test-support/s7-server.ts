/**
 * A real S7 server for tests: snap7's server (node-snap7's `S7Server`) in a child process on
 * 127.0.0.1 and a free port, serving the data blocks, merkers, inputs and outputs it is given.
 * Areas not given do not exist (a read of them is refused with "item not available"). It takes
 * value changes on its standard input. Free of vitest, so benchmarks can use it too; suites
 * wrap themselves in `describeWithSnap7`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { killProcess } from './kill-process.js';
import { freePort } from './local-server.js';

/** The areas the server serves: DBs by number, and the merker (M), input (I) and output (Q) areas. */
export interface S7Areas {
  readonly db?: Readonly<Record<number, Buffer>>;
  readonly M?: Buffer;
  readonly I?: Buffer;
  readonly Q?: Buffer;
}

const SCRIPT = String.raw`
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const snap7 = createRequire(import.meta.url)(process.argv[2]);
const port = Number(process.argv[3]);
const areas = JSON.parse(readFileSync(process.argv[4], 'utf8'));
const server = new snap7.S7Server();
const codes = { M: server.srvAreaMK, I: server.srvAreaPE, Q: server.srvAreaPA };
for (const [index, hex] of Object.entries(areas.db ?? {}))
  server.RegisterArea(server.srvAreaDB, Number(index), Buffer.from(hex, 'hex'));
for (const [name, code] of Object.entries(codes))
  if (areas[name] !== undefined) server.RegisterArea(code, Buffer.from(areas[name], 'hex'));
server.on('event', (event) => {
  if (event.EvtCode === server.evcSecurity) console.log('security ' + server.EventText(event));
});
server.SetParam(server.LocalPort, port);
if (!server.StartTo('127.0.0.1')) {
  console.error('cannot start: ' + server.ErrorText(server.LastError()));
  process.exit(1);
}
console.log('listening ' + port);
createInterface({ input: process.stdin }).on('line', (line) => {
  const change = JSON.parse(line);
  if (change.area !== undefined) {
    const code = change.area === 'DB' ? server.srvAreaDB : codes[change.area];
    const index = change.area === 'DB' ? change.index : 0;
    const buffer = Buffer.from(server.GetArea(code, index));
    Buffer.from(change.hex, 'hex').copy(buffer, change.offset);
    if (change.area === 'DB') server.SetArea(code, index, buffer);
    else server.SetArea(code, buffer);
  }
  console.log('ok');
});
process.stdin.on('end', () => process.exit(0));
`;

export class S7TestServer {
  readonly port: number;
  /** The server's security events in words ("Security request : Set session password"...). */
  readonly security: string[] = [];
  readonly #dir: string;
  #child: ChildProcess | undefined;
  #acks: (() => void)[] = [];

  private constructor(port: number, dir: string) {
    this.port = port;
    this.#dir = dir;
  }

  /** Starts a server with the given areas, on a free port unless one is given. */
  static async start(areas: S7Areas, port?: number): Promise<S7TestServer> {
    const dir = mkdtempSync(join(tmpdir(), 'triad-s7-'));
    writeFileSync(join(dir, 'server.mjs'), SCRIPT);
    const hex = (buffer: Buffer | undefined) => buffer?.toString('hex');
    const db = Object.fromEntries(Object.entries(areas.db ?? {}).map(([n, buffer]) => [n, hex(buffer)]));
    writeFileSync(join(dir, 'areas.json'), JSON.stringify({ db, M: hex(areas.M), I: hex(areas.I), Q: hex(areas.Q) }));
    const server = new S7TestServer(port ?? (await freePort()), dir);
    await server.restart();
    return server;
  }

  /** Starts the server again after `kill` (same port, the areas as first given). */
  async restart(): Promise<void> {
    if (this.#child !== undefined) throw new Error('the S7 test server is running');
    const snap7 = createRequire(import.meta.url).resolve('node-snap7');
    const child = spawn(
      process.execPath,
      [join(this.#dir, 'server.mjs'), snap7, String(this.port), join(this.#dir, 'areas.json')],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.#child = child;
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line === 'ok') this.#acks.shift()?.();
        else if (line.startsWith('security ')) this.security.push(line.slice('security '.length));
        else if (line.startsWith('listening')) resolve();
      });
      child.once('exit', (code) => {
        if (this.#child === child) this.#child = undefined;
        reject(new Error(`the S7 test server exited (${code}): ${errors.trim()}`));
      });
    });
  }

  /** Writes `bytes` at `offset` of an area (`DB` with its number, or `M`, `I`, `Q`). */
  async write(area: 'DB' | 'M' | 'I' | 'Q', index: number, offset: number, bytes: Buffer): Promise<void> {
    const child = this.#child;
    if (child === undefined) throw new Error('the S7 test server is not running');
    const done = new Promise<void>((resolve) => this.#acks.push(resolve));
    child.stdin?.write(`${JSON.stringify({ area, index, offset, hex: bytes.toString('hex') })}\n`);
    await done;
  }

  /** Kills the server at once (as a power cut would) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    await killProcess(child);
  }

  /** Stops the server and removes its files. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
