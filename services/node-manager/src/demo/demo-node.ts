import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { lookupNodePort } from '../connections/epmd-client.js';
import type { NodeManagerCore } from '../node-manager-core.js';

/** Alive part of the demo node's name (`triad_demo@<short host>`). */
export const DEMO_NODE_ALIVE = 'triad_demo';

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
const READY_LINE = 'triad-demo-ready';

/** What `startDemo` did, for the start-up notes. */
export interface DemoOutcome {
  /** One line for the operator. */
  readonly note: string;
  /**
   * Stops the demo node this start launched: closes its standard input, so it halts, and kills
   * it after 3 s. Says how it ended; `none` when this start launched no node.
   */
  stop(): Promise<'halted' | 'killed' | 'none'>;
}

/** The host part `-sname` gives a node on this machine: the first label of the host name. */
export function shortHostName(): string {
  return hostname().split('.')[0]!;
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
 * `erl -sname triad_demo` with SASL and a random cookie (kept in the node record, reused on the
 * next start), lets it set one SASL alarm, and adds it through the ordinary add-node path, so
 * it comes UP, lands in the family of its release and its alarm appears in the lists. The node
 * is a child process that halts when the service closes (or dies: it halts on end of input).
 * Without `erl`, the note says what to install or how to add a node of one's own.
 */
export async function startDemo(
  core: NodeManagerCore,
  options: { url: string; onError?: (error: unknown) => void; /** Alive part; default `triad_demo`. */ alive?: string },
): Promise<DemoOutcome> {
  const alive = options.alive ?? DEMO_NODE_ALIVE;
  const name = `${alive}@${shortHostName()}`;
  const none = (note: string): DemoOutcome => ({ note, stop: async () => 'none' as const });
  const stored = await core.topologyStore.findLiveNodeByName(name);
  if (!stored && (await core.topologyStore.listNodes()).length > 0)
    return none('demo: the store already has nodes; no demo node started');
  if (!erlOnPath()) {
    return none(
      `demo: install Erlang (Debian: apt-get install erlang-base) for a demo node, or add one of yours: curl -u admin:<password> -H 'content-type: application/json' -d '{"name":"app@host","cookie":"<cookie>"}' ${options.url}/api/topo/action/add-node`,
    );
  }
  const cookie = stored?.cookie ?? randomBytes(12).toString('hex');
  const host = name.split('@')[1]!;
  const registered = await lookupNodePort(host, alive, { timeoutMs: 1000 });
  let child: ChildProcess | undefined;
  if (registered.kind !== 'port') {
    child = spawn(
      'erl',
      [
        '-sname',
        alive,
        '-setcookie',
        cookie,
        '-noshell',
        '-boot',
        'start_sasl',
        '-sasl',
        'sasl_error_logger',
        'false',
        '-eval',
        DEMO_NODE_CODE,
      ],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, ERL_CRASH_DUMP_SECONDS: '0' },
      },
    );
    child.on('error', (error) => options.onError?.(error));
    const boot = await bootedWithin(child, 15_000);
    if (boot !== 'ready') {
      child.kill('SIGKILL');
      return none(`demo: the demo Erlang node ${boot} (is epmd allowed to run?)`);
    }
  }
  const stop = async (): Promise<'halted' | 'killed' | 'none'> => {
    if (!child) return 'none';
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
      child.stdin?.end(); // the node halts at end of input
      const timer = setTimeout(() => child!.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    return child.signalCode === null ? 'halted' : 'killed';
  };
  try {
    if (!stored) await core.topology.addNode(name, cookie);
  } catch (error) {
    options.onError?.(error);
  }
  const how = child ? 'started' : 'already running; not started again';
  return { note: `demo: Erlang node ${name} ${how}, managed here (stops with the service; --no-demo to skip)`, stop };
}

/** Resolves `'ready'` once the node printed its ready line, else what went wrong (exit or timeout, with the end of its standard error). */
function bootedWithin(child: ChildProcess, timeoutMs: number): Promise<'ready' | string> {
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
      seen = (seen + chunk.toString('latin1')).slice(-200);
      if (seen.includes(READY_LINE)) done('ready');
    };
    const onError = (chunk: Buffer) => {
      errors = (errors + chunk.toString('latin1')).slice(-300);
    };
    const said = () => (errors.trim() === '' ? '' : `; it said: ${errors.trim().replace(/\s+/g, ' ')}`);
    const onExit = (code: number | null, signal: string | null) =>
      done(`exited (${signal ?? `code ${code}`}) before it was ready${said()}`);
    const timer = setTimeout(() => done(`did not start within ${timeoutMs / 1000} s${said()}`), timeoutMs);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onError);
    child.once('exit', onExit);
  });
}
