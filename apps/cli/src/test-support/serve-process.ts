import { startSourceProcess, waitForProcess, type SourceProcess } from '@triad/service-kit/testing';
import { fileURLToPath } from 'node:url';

/** The repository root (apps/cli/src/test-support -> four levels up). */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A `triad` process started from the sources, as `npm run dev` does, with what it printed so far. */
export type TriadProcess = SourceProcess;

/**
 * Runs `node --conditions=source --import tsx apps/cli/src/bin.ts ...args` in the repository root
 * (the `serve` path of `npm start` without needing a build), `env` added to this process's.
 */
export function startTriad(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): TriadProcess {
  return startSourceProcess({ cwd: REPOSITORY_ROOT, args: ['apps/cli/src/bin.ts', ...args], env });
}

/** Like `startTriad`, but inside a pseudo-terminal made by `script` (util-linux): both streams are a TTY. */
export function startTriadOnTerminal(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): TriadProcess {
  return startSourceProcess({ cwd: REPOSITORY_ROOT, args: ['apps/cli/src/bin.ts', ...args], env, terminal: true });
}

/**
 * Waits until `check()` is true, polling every 100 ms, for at most `budgetMs`.
 *
 * @throws Error naming `what` and the process output when the budget runs out or the process ends.
 */
export function waitFor(triad: TriadProcess, check: () => boolean, budgetMs: number, what: string): Promise<void> {
  return waitForProcess(triad, check, budgetMs, `${what}: not seen`);
}

/** Sends SIGTERM (once) and resolves with the exit code; SIGKILL after `graceMs`. */
export function stopTriad(triad: TriadProcess, graceMs = 15_000): Promise<number | string> {
  return triad.stop(graceMs);
}
