import { spawn, type ChildProcess } from 'node:child_process';

/** A process run from the sources (`node --conditions=source --import tsx ...`), with what it printed so far. */
export interface SourceProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process ended. */
  readonly exited: Promise<number | string>;
  /** SIGKILL, as `kill -9` does, unless it ended already; resolves once it ended. */
  kill(): Promise<void>;
  /** Sends SIGTERM (once) and resolves with the exit code; SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<number | string>;
}

export interface StartSourceProcessOptions {
  /** Working directory; the script in `args` is read relative to it. */
  readonly cwd: string;
  /** What follows `node --conditions=source --import tsx`: the script, then its arguments. */
  readonly args: readonly string[];
  /** Added to this process's environment; an `undefined` value removes the variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Run inside a pseudo-terminal made by `script` (util-linux): both streams are a TTY, stdin a pipe. */
  readonly terminal?: boolean;
  /**
   * Run built JavaScript as `node ...args` (no `--conditions=source`, no tsx): what `npm start`
   * runs. The caller names a built script and makes sure it is up to date.
   */
  readonly built?: boolean;
}

/**
 * Test helper: runs `node --conditions=source --import tsx ...args` in `cwd` (code straight from
 * the sources, without a build) and captures its standard output and error.
 */
export function startSourceProcess(options: StartSourceProcessOptions): SourceProcess {
  const nodeArgs = options.built ? [...options.args] : ['--conditions=source', '--import', 'tsx', ...options.args];
  const spawnOptions = { cwd: options.cwd, env: environment(options.env ?? {}) };
  const child = options.terminal
    ? spawn('script', ['-qefc', `exec ${[process.execPath, ...nodeArgs].map(shellQuote).join(' ')}`, '/dev/null'], {
        ...spawnOptions,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, nodeArgs, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 15_000) {
      if (!running()) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Waits until `check()` is true, polling every 100 ms, for at most `budgetMs`.
 *
 * @throws Error starting with `failure`, then the process output, when the budget runs out or the process ends.
 */
export async function waitForProcess(
  started: SourceProcess,
  check: () => boolean,
  budgetMs: number,
  failure: string,
): Promise<void> {
  const deadline = Date.now() + budgetMs;
  while (!check()) {
    if (started.child.exitCode !== null || started.child.signalCode !== null || Date.now() > deadline) {
      throw new Error(`${failure}\n--- stdout\n${started.stdout()}\n--- stderr\n${started.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A service run from the sources that listens: its URL and instance id, as `/healthz` says. */
export interface ServiceProcess extends SourceProcess {
  readonly url: string;
  readonly instance: string;
}

/**
 * Test helper: starts a service with `startSourceProcess` and waits (up to `budgetMs`, default
 * 2 min) until it prints `listening <url>` on its own line of standard output, then asks its
 * `/healthz` for its instance id.
 *
 * @throws Error "`name` did not start" with its output when it ends or does not listen in time; it is killed then.
 */
export async function startServiceProcess(
  options: StartSourceProcessOptions & { readonly name: string; readonly budgetMs?: number },
): Promise<ServiceProcess> {
  const started = startSourceProcess(options);
  const listening = (): string | undefined => /^listening (\S+)$/m.exec(started.stdout())?.[1];
  try {
    await waitForProcess(
      started,
      () => listening() !== undefined,
      options.budgetMs ?? 120_000,
      `${options.name} did not start`,
    );
  } catch (error) {
    started.child.kill('SIGKILL');
    throw error;
  }
  const url = listening() as string; // the wait saw it
  const health = (await (await fetch(`${url}/healthz`)).json()) as { instance: string };
  return { ...started, url, instance: health.instance };
}

/** This process's environment with `changes` applied; an `undefined` value removes the variable. */
function environment(changes: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...changes })) {
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
