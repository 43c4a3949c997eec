/**
 * Real local Erlang nodes for the benchmarks: started as child processes (`erl` execs the beam,
 * so the child's pid is the node's), remembered, and killed by pid on `killAllErl()`, on exit
 * and on SIGINT/SIGTERM, so a failed run leaves no node behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';

/** A running node started by `startErl`. */
export interface ErlProcess {
  /** `alive@host` as `node()` returns it. */
  readonly name: string;
  readonly child: ChildProcess;
  /** Lines the node printed on stdout so far (the `-eval` scripts report through them). */
  readonly lines: string[];
  /** Resolves with the first stdout line matching `pattern` (already printed ones count); rejects after `timeoutMs`. */
  line(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Sends a signal to the beam process (ignored once it exited). */
  signal(signal: NodeJS.Signals): void;
  /** SIGCONT + SIGKILL; resolves once the process exited. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** The host part `-sname` gives on this machine. */
export const SHORT_HOST = hostname().split('.')[0]!;

/** True when `erl` can be started. */
export function erlAvailable(): boolean {
  return spawnSync('erl', ['-version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts `erl -sname <alive> -setcookie <cookie> -noshell -noinput -eval <script>` and resolves
 * once the script printed `ready` (with the default script: once distribution is up). Scripts
 * given here must print `ready` themselves when they are set up.
 */
export async function startErl(
  alive: string,
  cookie: string,
  script = 'io:format("ready~n").',
  timeoutMs = 30_000,
): Promise<ErlProcess> {
  const child = spawn('erl', ['-sname', alive, '-setcookie', cookie, '-noshell', '-noinput', '-eval', script], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ERL_CRASH_DUMP_SECONDS: '0' },
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  let closed = false;
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiters) wake();
  });
  // 'close' comes after the last stdout data: a script's final lines are read before giving up on it.
  child.once('close', () => {
    closed = true;
    for (const wake of waiters) wake();
  });
  const alivePid = () => child.pid !== undefined && child.exitCode === null && child.signalCode === null;
  const node: ErlProcess = {
    name: `${alive}@${SHORT_HOST}`,
    child,
    lines,
    line(pattern, ms) {
      return new Promise((resolve, reject) => {
        const finish = (error: Error | undefined, found?: string) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(found!);
        };
        const check = () => {
          const found = lines.find((l) => pattern.test(l));
          if (found !== undefined) finish(undefined, found);
          else if (closed) finish(new Error(`${alive} exited before printing ${pattern}`));
        };
        const timer = setTimeout(() => finish(new Error(`${alive}: no line ${pattern} within ${ms} ms`)), ms);
        waiters.add(check);
        check();
      });
    },
    signal(signal) {
      if (alivePid()) process.kill(child.pid!, signal);
    },
    async kill() {
      node.signal('SIGCONT');
      node.signal('SIGKILL');
      await exited;
    },
  };
  try {
    await node.line(/^ready$/, timeoutMs);
  } catch (error) {
    await node.kill();
    throw error;
  }
  return node;
}

/** Starts `count` plain nodes `<prefix>_<i>`, `batch` at a time. */
export async function startErlNodes(
  prefix: string,
  count: number,
  cookie: string,
  batch: number,
): Promise<ErlProcess[]> {
  const nodes: ErlProcess[] = [];
  for (let i = 0; i < count; i += batch) {
    const size = Math.min(batch, count - i);
    nodes.push(...(await Promise.all(Array.from({ length: size }, (_, k) => startErl(`${prefix}_${i + k}`, cookie)))));
  }
  return nodes;
}

/** Kills every node still running (synchronous: also usable from an `exit` handler). */
export function killAllErl(): void {
  for (const child of running) {
    for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
      try {
        if (child.pid !== undefined) process.kill(child.pid, signal);
      } catch {
        // Already gone.
      }
    }
  }
}

process.once('exit', killAllErl);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllErl();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}
