import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root (apps/cli/src/test-support -> four levels up). */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A `triad` process started from the sources, as `npm run dev` does, with what it printed so far. */
export interface TriadProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process ended. */
  readonly exited: Promise<number | string>;
}

/**
 * Runs `node --conditions=source --import tsx apps/cli/src/bin.ts ...args` in the repository root
 * (the `serve` path of `npm start` without needing a build), `env` added to this process's.
 */
export function startTriad(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): TriadProcess {
  return wrap(
    spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'apps/cli/src/bin.ts', ...args], {
      cwd: REPOSITORY_ROOT,
      env: environment(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** Like `startTriad`, but inside a pseudo-terminal made by `script` (util-linux): both streams are a TTY. */
export function startTriadOnTerminal(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): TriadProcess {
  const quoted = [process.execPath, '--conditions=source', '--import', 'tsx', 'apps/cli/src/bin.ts', ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return wrap(
    spawn('script', ['-qefc', `exec ${quoted}`, '/dev/null'], {
      cwd: REPOSITORY_ROOT,
      env: environment(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
}

/** This process's environment with `changes` applied; an `undefined` value removes the variable. */
function environment(changes: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...changes })) {
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}

function wrap(child: ChildProcess): TriadProcess {
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * Waits until `check()` is true, polling every 100 ms, for at most `budgetMs`.
 *
 * @throws Error naming `what` and the process output when the budget runs out or the process ends.
 */
export async function waitFor(
  triad: TriadProcess,
  check: () => boolean,
  budgetMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + budgetMs;
  while (!check()) {
    if (triad.child.exitCode !== null || triad.child.signalCode !== null || Date.now() > deadline) {
      throw new Error(`${what}: not seen\n--- stdout\n${triad.stdout()}\n--- stderr\n${triad.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends SIGTERM (once) and resolves with the exit code; SIGKILL after `graceMs`. */
export async function stopTriad(triad: TriadProcess, graceMs = 15_000): Promise<number | string> {
  if (triad.child.exitCode === null && triad.child.signalCode === null) {
    triad.child.kill('SIGTERM');
    const timer = setTimeout(() => triad.child.kill('SIGKILL'), graceMs);
    const code = await triad.exited;
    clearTimeout(timer);
    return code;
  }
  return triad.exited;
}
