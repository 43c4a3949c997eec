import { startSourceProcess, waitForListening, type SourceProcess } from '@triad/service-kit/testing';
import { fileURLToPath } from 'node:url';

/** The repository root (services/node-manager/src/test-support -> four levels up). */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = 'services/node-manager/src/test-support/node-manager-instance.ts';

/** A node manager running in a child process (`node-manager-instance.ts`); `kill()` ends it as `kill -9` does. */
export interface NodeManagerProcess extends SourceProcess {
  readonly url: string;
  /** Its instance id, as `/healthz` says. */
  readonly instance: string;
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
  const started = startSourceProcess({ cwd: ROOT, args: [SCRIPT], env });
  const url = await waitForListening(started, budgetMs, 'node manager');
  const health = (await (await fetch(`${url}/healthz`)).json()) as { instance: string };
  return { ...started, url, instance: health.instance };
}
