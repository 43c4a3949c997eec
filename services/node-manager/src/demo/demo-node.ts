import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { lookupNodePort } from '../connections/epmd-client.js';
import type { NodeManagerCore } from '../node-manager-core.js';

/** Start of the alive part of the demo node's name (`triad_demo_<hash>@<short host>`). */
export const DEMO_NODE_ALIVE = 'triad_demo';

/** How long the demo node may take to boot before `startDemo` gives up on it, ms. */
export const DEMO_BOOT_TIMEOUT_MS = 30_000; // 30 s

/** How long `stop()` waits for the node to halt at end of input before it kills it, ms. */
export const DEMO_STOP_GRACE_MS = 3_000; // 3 s

/**
 * The demo node's alive part for one installation: `triad_demo_` and the first 8 hex digits of the
 * SHA-256 of `storeIdentity` (the resolved data directory, or the database URL), so two
 * installations on one host run a demo node each instead of adopting each other's.
 */
export function demoNodeAlive(storeIdentity: string): string {
  return `${DEMO_NODE_ALIVE}_${createHash('sha256').update(storeIdentity).digest('hex').slice(0, 8)}`;
}

/** The alarm the demo node sets through SASL's alarm handler, so the alarm list has one. */
export const DEMO_ALARM_ID = 'triad_demo_alarm';

/**
 * Erlang run by the demo node: set one SASL alarm, and halt when standard input closes, so the
 * node ends with the service that started it even when that service is killed.
 */
const DEMO_NODE_CODE = [
  `alarm_handler:set_alarm({${DEMO_ALARM_ID}, "Demo alarm of the node manager's demo node: acknowledge or clear it"})`,
  `spawn(fun() -> io:get_line(""), erlang:halt() end)`,
  `io:format("${'triad-demo-ready'}~n")`,
].join(', ');

/** The line the demo node prints once booted (`-eval` runs after the boot script). */
export const READY_LINE = 'triad-demo-ready';

/** Options of `startDemo`. */
export interface StartDemoOptions {
  /** The node manager's URL, for the note on adding a node of one's own. */
  readonly url: string;
  readonly onError?: (error: unknown) => void;
  /** Alive part of the node's name; default `triad_demo` (`demoNodeAlive` makes one per installation). */
  readonly alive?: string;
  /** Default `DEMO_BOOT_TIMEOUT_MS`. */
  readonly bootTimeoutMs?: number;
  /** Default `DEMO_STOP_GRACE_MS`. */
  readonly stopGraceMs?: number;
}

/** What `startDemo` did, for the start-up notes. */
export interface DemoOutcome {
  /** One line for the operator. */
  readonly note: string;
  /**
   * Stops the demo node this start launched: closes its standard input, so it halts, and kills
   * it after `stopGraceMs`. Says how it ended; `none` when this start launched no node.
   */
  stop(): Promise<'halted' | 'killed' | 'none'>;
}

/** The host part `-sname` gives a node on this machine: the first label of the host name. */
export function shortHostName(): string {
  return hostname().split('.')[0] ?? hostname();
}

/** True when an `erl` executable is on PATH. */
export function erlOnPath(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return (env['PATH'] ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir || '.', 'erl'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The demo of `triad serve`: a real Erlang node to manage. When `erl` is installed and the
 * store has no live node yet (or holds the demo node from an earlier start), it starts
 * `erl -sname <alive>` (see `demoNodeHost`), listening on loopback only, with SASL and a random
 * cookie given in a 0400 file, never on its command line (kept in the node record, reused on the
 * next start), lets it set one SASL alarm, and adds it through the ordinary add-node path, so
 * it comes UP, lands in the family of its release and its alarm appears in the lists. The node
 * is a child process that halts when the service closes (or dies: it halts on end of input).
 * Without `erl`, the note says what to install or how to add a node of one's own.
 */
export async function startDemo(core: NodeManagerCore, options: StartDemoOptions): Promise<DemoOutcome> {
  const alive = options.alive ?? DEMO_NODE_ALIVE;
  const where = await demoNodeHost(shortHostName());
  const name = `${alive}@${where.host}`;
  const none = (note: string): DemoOutcome => ({ note, stop: () => Promise.resolve('none' as const) });
  const stored = await core.topologyStore.findLiveNodeByName(name);
  if (!stored && (await core.topologyStore.listNodes()).length > 0)
    return none('demo: the store already has nodes; no demo node started');
  if (!erlOnPath()) {
    return none(
      'demo: install Erlang (Debian: apt-get install erlang-base) for a demo node, or add one of yours: ' +
        `curl -u admin:<password> -H 'content-type: application/json' ` +
        `-d '{"name":"app@host","cookie":"<cookie>"}' ${options.url}/api/topo/action/add-node`,
    );
  }
  const cookie = stored?.cookie ?? randomBytes(12).toString('hex');
  const registered = await lookupNodePort(where.host, alive, { timeoutMs: 1000 });
  let child: ChildProcess | undefined;
  if (registered.kind !== 'port') {
    // The cookie reaches the node as $HOME/.erlang.cookie (0400, in a private folder deleted once
    // the node has read it), never on its command line, where `ps` would show it to every user.
    const home = await mkdtemp(path.join(tmpdir(), 'triad-demo-'));
    try {
      await writeFile(path.join(home, '.erlang.cookie'), cookie, { mode: 0o400 });
      const launch = demoNodeLaunch({ alive, where, home, env: process.env });
      child = spawn('erl', launch.args, { stdio: ['pipe', 'pipe', 'pipe'], env: launch.env });
      child.on('error', (error) => options.onError?.(error));
      const boot = await bootedWithin(child, options.bootTimeoutMs ?? DEMO_BOOT_TIMEOUT_MS);
      if (boot !== 'ready') {
        child.kill('SIGKILL');
        return none(`demo: the demo Erlang node ${boot} (is epmd allowed to run?)`);
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
  const launched = child;
  const stop = async (): Promise<'halted' | 'killed' | 'none'> => {
    if (!launched) return 'none';
    if (launched.exitCode === null && launched.signalCode === null) {
      const exited = new Promise<void>((resolve) => launched.once('exit', () => resolve()));
      launched.stdin?.end(); // the node halts at end of input
      const timer = setTimeout(() => launched.kill('SIGKILL'), options.stopGraceMs ?? DEMO_STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    return launched.signalCode === null ? 'halted' : 'killed';
  };
  try {
    if (!stored) await core.topology.addNode(name, cookie);
  } catch (error) {
    options.onError?.(error);
  }
  const how = child ? 'started' : 'already running; not started again';
  return { note: `demo: Erlang node ${name} ${how}, managed here (stops with the service; --no-demo to skip)`, stop };
}

/** Where the demo node lives: the host part of its name, and the loopback address it listens on. */
export interface DemoNodeHost {
  /** This machine's short name (`-sname`) when it resolves to a loopback address, else `127.0.0.1` (`-name`). */
  readonly host: string;
  readonly longName: boolean;
  /** The IPv4 loopback address its distribution port and a new epmd listen on. */
  readonly address: string;
}

/**
 * The demo node listens on loopback only. Its name keeps this machine's short host name when that
 * name resolves to an IPv4 loopback address (as Debian's `/etc/hosts` makes it, 127.0.1.1 or
 * 127.0.0.1), so the node manager, which connects to the name's host, reaches it there; otherwise
 * the node is named `<alive>@127.0.0.1`.
 */
export async function demoNodeHost(shortHost: string): Promise<DemoNodeHost> {
  try {
    const addresses = await lookup(shortHost, { all: true, family: 4 });
    const first = addresses[0]?.address;
    if (first !== undefined && addresses.every((a) => a.address.startsWith('127.')))
      return { host: shortHost, longName: false, address: first };
  } catch {
    // Not resolvable: the long name below works without a resolver.
  }
  return { host: '127.0.0.1', longName: true, address: '127.0.0.1' };
}

/** Arguments and environment of the demo node's `erl` (no cookie: it is in `home`). */
export function demoNodeLaunch(options: {
  readonly alive: string;
  readonly where: DemoNodeHost;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}): { args: string[]; env: Record<string, string | undefined> } {
  const { alive, where } = options;
  const args = [
    // One scheduler that sleeps instead of spinning when idle: the demo node needs little CPU,
    // and on a busy machine it boots several times faster without fighting for it.
    ...['+S', '1', '+sbwt', 'none', '+sbwtdcpu', 'none', '+sbwtdio', 'none'],
    ...(where.longName ? ['-name', `${alive}@${where.host}`] : ['-sname', alive]),
    // Its distribution port on loopback only, not every interface.
    ...['-kernel', 'inet_dist_use_interface', `{${where.address.split('.').join(',')}}`],
    ...['-noshell', '-boot', 'start_sasl', '-sasl', 'sasl_error_logger', 'false', '-eval', DEMO_NODE_CODE],
  ];
  return {
    args,
    env: {
      ...options.env,
      HOME: options.home,
      ERL_CRASH_DUMP_SECONDS: '0',
      // An epmd this node starts listens on loopback only (an epmd already running keeps its own).
      ERL_EPMD_ADDRESS: where.address,
    },
  };
}

/** How long the output of a node that exited is still read (see `bootedWithin`). */
const EXIT_OUTPUT_GRACE_MS = 500;

/**
 * Resolves `'ready'` once the node printed its ready line (it prints it after distribution and
 * SASL are up), else what went wrong: exit or timeout, with the end of its standard error.
 */
export function bootedWithin(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    let seen = '';
    let errors = '';
    const done = (outcome: string) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      // Keep reading (and dropping) whatever the node prints later, so it never blocks on output.
      child.stdout?.off('data', onData).resume();
      child.stderr?.off('data', onError).resume();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      // Look before trimming: the ready line often shares a chunk with the alarm's long INFO
      // REPORT, and trimming first to a fixed tail cut it off now and then (the boot then
      // "timed out" with the node up). Keep only what could be the start of a split ready line.
      const text = seen + chunk.toString('latin1');
      if (text.includes(READY_LINE)) done('ready');
      else seen = text.slice(-(READY_LINE.length - 1));
    };
    const onError = (chunk: Buffer) => {
      errors = (errors + chunk.toString('latin1')).slice(-300);
    };
    const said = () => (errors.trim() === '' ? '' : `; it said: ${errors.trim().replace(/\s+/g, ' ')}`);
    // 'exit' can come before the last output is read: wait for the pipes to close (briefly, as
    // a grandchild such as epmd may hold them open) so the message ends with what it said.
    const onExit = (code: number | null, signal: string | null) => {
      const report = () => done(`exited (${signal ?? `code ${code}`}) before it was ready${said()}`);
      const grace = setTimeout(report, EXIT_OUTPUT_GRACE_MS);
      child.once('close', () => {
        clearTimeout(grace);
        report();
      });
    };
    const timer = setTimeout(() => done(`did not start within ${timeoutMs / 1000} s${said()}`), timeoutMs);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onError);
    child.once('exit', onExit);
  });
}
