import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root (services/node-manager/src/test-support -> four levels up). */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = 'services/node-manager/src/test-support/node-manager-instance.ts';

/** A node manager running in a child process (`node-manager-instance.ts`). */
export interface NodeManagerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Its instance id, as `/healthz` says. */
  readonly instance: string;
  /** Resolves with the exit code or signal once it ended. */
  readonly exited: Promise<number | string>;
  /** SIGKILL, as `kill -9` does; resolves once it ended. */
  kill(): Promise<void>;
}

/**
 * Starts a node manager from the sources with `env` over this process's environment and waits
 * (up to `budgetMs`) until it listens and `/healthz` answers ok.
 *
 * @throws Error with its output when it ends or does not listen in time.
 */
export async function startNodeManagerProcess(
  env: Readonly<Record<string, string>>,
  budgetMs = 120_000,
): Promise<NodeManagerProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const deadline = Date.now() + budgetMs;
  let url: string | undefined;
  while ((url = /^listening (\S+)$/m.exec(out)?.[1]) === undefined) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`node manager did not start\n--- stdout\n${out}\n--- stderr\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const health = (await (await fetch(`${url}/healthz`)).json()) as { instance: string };
  return {
    child,
    url,
    instance: health.instance,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
