import { startServiceProcess, type ServiceProcess } from '@triad/service-kit/testing';
import { fileURLToPath } from 'node:url';

/** The repository root (services/node-manager/src/test-support -> four levels up). */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = 'services/node-manager/src/test-support/node-manager-instance.ts';

/** A node manager running in a child process (`node-manager-instance.ts`); `kill()` ends it as `kill -9` does. */
export type NodeManagerProcess = ServiceProcess;

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
  return startServiceProcess({ cwd: ROOT, args: [SCRIPT], env, budgetMs, name: 'node manager' });
}
