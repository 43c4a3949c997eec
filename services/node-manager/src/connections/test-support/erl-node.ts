import { spawn, type ChildProcess } from 'node:child_process';
import { erlOnPath, shortHostName } from '../../demo/demo-node.js';
import { lookupNodePort } from '../epmd-client.js';

/** Whether live tests run: erl present, or required by TRIAD_REQUIRE_SERVICES=1 (then a missing erl fails). */
export const liveErl = Object.freeze({
  available: erlOnPath(),
  required: process.env['TRIAD_REQUIRE_SERVICES'] === '1',
});

/** A real Erlang node started for a test, stopped by pid. */
export interface ErlNode {
  /** Full node name as node() returns it. */
  readonly name: string;
  readonly alive: string;
  readonly cookie: string;
  readonly child: ChildProcess;
  /** Sends a signal to the node's beam process. */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL (and SIGCONT in case it is stopped); resolves when the process exited. */
  kill(): Promise<void>;
}

/** The host part `-sname` gives on this machine (`shortHostName`). */
export const shortHost = shortHostName;

/** Options of `startErlNode`. */
export interface ErlNodeOptions {
  /** `-name alive@127.0.0.1` instead of `-sname`. */
  readonly long?: boolean;
  /** Arguments after the name, cookie and `-noshell` (`['+P', '1024']`). */
  readonly extraArgs?: readonly string[];
  /** The node's open-file limit (`ulimit -n` in a shell that then execs `erl`). */
  readonly fdLimit?: number;
}

/**
 * Starts `erl -sname|-name <alive> -setcookie <cookie> -noshell` as a child process (the beam
 * process itself: `erl` execs it) and resolves once EPMD has the node registered (10 s at most).
 */
export async function startErlNode(alive: string, cookie: string, options: ErlNodeOptions = {}): Promise<ErlNode> {
  if (!liveErl.available) throw new Error('erl is not on PATH: install erlang-base');
  const host = options.long ? '127.0.0.1' : shortHost();
  const nameArgs = options.long
    ? ['-name', `${alive}@127.0.0.1`, '-kernel', 'inet_dist_use_interface', '{127,0,0,1}']
    : ['-sname', alive];
  const erlArgs = [...nameArgs, '-setcookie', cookie, '-noshell', '-noinput', ...(options.extraArgs ?? [])];
  // `exec` keeps the pid the beam's, as without the shell.
  const [command, args] =
    options.fdLimit === undefined
      ? ['erl', erlArgs]
      : ['/bin/sh', ['-c', `ulimit -n ${Math.floor(options.fdLimit)} && exec erl "$@"`, 'sh', ...erlArgs]];
  const child = spawn(command, args, { stdio: 'ignore', env: { ...process.env, ERL_CRASH_DUMP_SECONDS: '0' } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const node: ErlNode = {
    name: `${alive}@${host}`,
    alive,
    cookie,
    child,
    signal(signal) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
        process.kill(child.pid, signal);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      node.signal('SIGKILL');
      await exited;
    },
  };
  for (let i = 0; i < 100; i++) {
    const found = await lookupNodePort(host, alive, { timeoutMs: 1000 });
    if (found.kind === 'port') return node;
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  await node.kill();
  throw new Error(`${alive} never registered with EPMD`);
}

/** Polls `condition` every 20 ms until it holds; rejects after `timeoutMs` with `what`. */
export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** A name unique to this test process, usable as an alive part. */
export function uniqueAlive(prefix: string): string {
  return `${prefix}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
}
