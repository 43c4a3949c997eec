/**
 * A real Modbus-TCP server for tests: our own small script on Debian's python3-pymodbus, serving
 * given values on 127.0.0.1. Addresses not given do not exist (the server answers "illegal data
 * address"). It prints one line per request it serves, so tests can count requests, and takes
 * value changes on its standard input (input registers and discrete inputs cannot be written
 * over Modbus).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describeWithPrograms, freePort } from './real-server.js';

export const PYTHON = '/usr/bin/python3';
const INSTALL = 'apt-get install python3-pymodbus';

/** The four tables, each `{address: [values from there on]}` (0-based protocol addresses). */
export interface ModbusTables {
  readonly co?: Readonly<Record<number, readonly boolean[]>>;
  readonly di?: Readonly<Record<number, readonly boolean[]>>;
  readonly ir?: Readonly<Record<number, readonly number[]>>;
  readonly hr?: Readonly<Record<number, readonly number[]>>;
}

/** One request the server served (validated): unit id, function code, start address, count. */
export interface ServedRequest {
  readonly unit: number;
  readonly functionCode: number;
  readonly address: number;
  readonly count: number;
}

const SCRIPT = String.raw`
import asyncio, json, os, sys, threading
from pymodbus.server import StartAsyncTcpServer
from pymodbus.datastore import ModbusServerContext, ModbusSlaveContext, ModbusSparseDataBlock
from pymodbus.server.async_io import ModbusConnectedRequestHandler

port = int(sys.argv[1])
with open(sys.argv[2]) as f:
    units = json.load(f)
# "rtu": RTU frames (unit, PDU, CRC) over the TCP connection, as serial gateways forward them.
framing = sys.argv[3] if len(sys.argv) > 3 else "tcp"

def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()

class LoggingContext(ModbusSlaveContext):
    def __init__(self, unit, **kwargs):
        super().__init__(zero_mode=True, **kwargs)
        self.unit = unit
    def validate(self, fc_as_hex, address, count=1):
        out("request %d %d %d %d" % (self.unit, fc_as_hex, address, count))
        return super().validate(fc_as_hex, address, count)

class LoggingHandler(ModbusConnectedRequestHandler):
    def connection_made(self, transport):
        out("connection")
        super().connection_made(transport)

def block(table):
    # An empty sparse block would answer nothing; one unused cell far away keeps it valid.
    values = {int(k): v for k, v in (table or {}).items()} or {65535: [0]}
    return ModbusSparseDataBlock(values)

slaves = {}
for unit, tables in units.items():
    slaves[int(unit)] = LoggingContext(int(unit), co=block(tables.get("co")), di=block(tables.get("di")),
                                       ir=block(tables.get("ir")), hr=block(tables.get("hr")))
context = ModbusServerContext(slaves=slaves, single=False)

CODES = {"co": 1, "di": 2, "hr": 3, "ir": 4}

def commands():
    for line in sys.stdin:
        change = json.loads(line)
        if "sync" not in change:
            slaves[change["unit"]].store[change["table"][0]].setValues(change["address"], change["values"])
        out("ok")
    os._exit(0)

async def main():
    extra = {}
    if framing == "rtu":
        from pymodbus.framer.rtu_framer import ModbusRtuFramer
        extra["framer"] = ModbusRtuFramer
    server = await StartAsyncTcpServer(context=context, address=("127.0.0.1", port), defer_start=True,
                                       allow_reuse_address=True, handler=LoggingHandler, **extra)
    task = asyncio.create_task(server.serve_forever())
    await server.serving
    out("listening %d" % port)
    threading.Thread(target=commands, daemon=True).start()
    await task

asyncio.run(main())
`;

/** True when /usr/bin/python3 exists and imports pymodbus. */
export function pymodbusAvailable(): boolean {
  return (
    spawnSync(PYTHON, ['-c', 'import pymodbus.server, pymodbus.datastore'], { stdio: 'ignore', timeout: 20_000 })
      .status === 0
  );
}

/** `describe` that runs only when the server can: skips (or fails, in CI) naming the package otherwise. */
export function describeWithPymodbus(title: string, body: () => void): void {
  const ready = pymodbusAvailable();
  describeWithPrograms(title, [ready ? PYTHON : `${PYTHON} (with the pymodbus module)`], INSTALL, body);
}

export class ModbusTestServer {
  readonly port: number;
  readonly requests: ServedRequest[] = [];
  /** Client connections accepted so far. */
  connections = 0;
  readonly #dir: string;
  readonly #framing: 'tcp' | 'rtu';
  #child: ChildProcess | undefined;
  #acks: (() => void)[] = [];

  private constructor(port: number, dir: string, framing: 'tcp' | 'rtu') {
    this.port = port;
    this.#dir = dir;
    this.#framing = framing;
  }

  /**
   * Starts a server with the tables of each unit id, on a free port unless one is given; with
   * `framing: 'rtu'` it speaks RTU frames over TCP (a serial gateway's way) instead of Modbus-TCP.
   */
  static async start(
    units: Readonly<Record<number, ModbusTables>>,
    port?: number,
    framing: 'tcp' | 'rtu' = 'tcp',
  ): Promise<ModbusTestServer> {
    const dir = mkdtempSync(join(tmpdir(), 'triad-modbus-'));
    writeFileSync(join(dir, 'server.py'), SCRIPT);
    writeFileSync(join(dir, 'units.json'), JSON.stringify(units));
    const server = new ModbusTestServer(port ?? (await freePort()), dir, framing);
    await server.restart();
    return server;
  }

  /** Starts the server again after `kill` (same port, the tables as first given plus no changes). */
  async restart(): Promise<void> {
    if (this.#child !== undefined) throw new Error('the Modbus test server is running');
    const child = spawn(
      PYTHON,
      ['-u', join(this.#dir, 'server.py'), String(this.port), join(this.#dir, 'units.json'), this.#framing],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.#child = child;
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const listening = new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const request = /^request (\d+) (\d+) (\d+) (\d+)$/.exec(line);
        if (request !== null)
          this.requests.push({
            unit: Number(request[1]),
            functionCode: Number(request[2]),
            address: Number(request[3]),
            count: Number(request[4]),
          });
        else if (line === 'ok') this.#acks.shift()?.();
        else if (line === 'connection') this.connections += 1;
        else if (line.startsWith('listening')) resolve();
      });
      child.once('exit', (code) => {
        if (this.#child === child) this.#child = undefined;
        reject(new Error(`the Modbus test server exited (${code}): ${errors.trim()}`));
      });
    });
    await listening;
  }

  /** Changes values in the server's store: `table` 'co', 'di', 'ir' or 'hr'. */
  async set(unit: number, table: keyof ModbusTables, address: number, values: readonly (number | boolean)[]) {
    await this.#command({ unit, table, address, values });
  }

  async #command(command: object): Promise<void> {
    const child = this.#child;
    if (child === undefined) throw new Error('the Modbus test server is not running');
    const done = new Promise<void>((resolve) => this.#acks.push(resolve));
    child.stdin?.write(`${JSON.stringify(command)}\n`);
    await done;
  }

  /**
   * Runs `action` and returns the requests the server served meanwhile (waiting until its log
   * has caught up: the log lines travel apart from the answers).
   */
  async served(action: () => Promise<unknown>): Promise<ServedRequest[]> {
    await this.#command({ sync: true });
    const before = this.requests.length;
    await action();
    await this.#command({ sync: true });
    return this.requests.slice(before);
  }

  /** Kills the server at once (as a crash or a power cut would) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
    this.#child = undefined;
  }

  /** Stops the server and removes its files. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
