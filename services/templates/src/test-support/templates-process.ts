import { startServiceProcess, type ServiceProcess } from '@triad/service-kit/testing';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The repository root (services/templates/src/test-support -> four levels up). */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = 'services/templates/src/test-support/templates-instance.ts';

/** A template service running in a child process (`templates-instance.ts`). */
export interface TemplatesProcess extends ServiceProcess {
  /** Its log so far (JSON lines). */
  log(): string;
}

/**
 * Starts the service from the sources with `env` over this process's environment and waits (up
 * to `budgetMs`) until it listens.
 *
 * @throws Error with its output when it ends or does not listen in time.
 */
export async function startTemplatesProcess(
  env: Readonly<Record<string, string>>,
  budgetMs = 120_000,
): Promise<TemplatesProcess> {
  const service = await startServiceProcess({ cwd: ROOT, args: [SCRIPT], env, budgetMs, name: 'template service' });
  return { ...service, log: () => service.stderr() };
}

/** Sends SIGTERM and waits for the end; SIGKILL after `graceMs`. */
export async function stopTemplatesProcess(service: TemplatesProcess, graceMs = 15_000): Promise<void> {
  await service.stop(graceMs);
}

/**
 * The devices an instance collects now, from its "devices collected here changed" log lines
 * (what the lease loop handed it and took from it).
 */
export function collectedDevices(service: TemplatesProcess): Set<string> {
  const collected = new Set<string>();
  for (const line of service.log().split('\n')) {
    if (!line.includes('"devices collected here changed"')) continue;
    const { gained, lost } = JSON.parse(line) as { gained: string[]; lost: string[] };
    for (const id of lost) collected.delete(id);
    for (const id of gained) collected.add(id);
  }
  return collected;
}

/**
 * What each of `services` collects, when together they collect every one of `expected` exactly
 * once (and nothing else); undefined otherwise.
 */
export function collectionSplit(
  services: readonly TemplatesProcess[],
  expected: readonly string[],
): Set<string>[] | undefined {
  const sets = services.map(collectedDevices);
  const all = sets.flatMap((set) => [...set]);
  return all.length === expected.length && expected.every((id) => all.includes(id)) ? sets : undefined;
}

/** An open Server-Sent Events stream and what it received so far. */
export interface EventStream {
  text(): string;
  close(): void;
}

/** Opens `url` (an SSE endpoint) and resolves once the reply headers came. */
export function openEventStream(url: string): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    let body = '';
    const request: ClientRequest = httpRequest(url, (response) => {
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      resolve({ text: () => body, close: () => request.destroy() });
    });
    request.on('error', reject);
    request.end();
  });
}
