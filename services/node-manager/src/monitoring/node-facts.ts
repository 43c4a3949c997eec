import { listElements, tupleOf, type Term } from '@triad/erlang-dist';
import { ErlangExpression, integerOf, textOf } from './erlang-expression.js';
import { erlangTermText } from './erlang-term-text.js';
import type { NodeFacts, RunningApplication } from '../model/node-facts.js';

/** Evaluated on the node in one RPC (no code loaded). */
export const NODE_FACTS_SOURCE = [
  '{erlang:system_info(otp_release), erlang:system_info(version), element(1, erlang:statistics(wall_clock)),',
  'erlang:system_info(process_count), erlang:memory(total), application:which_applications(),',
  'element(1, init:get_status())}.',
].join(' ');

/** The shared parsed form of `NODE_FACTS_SOURCE`. */
export const NODE_FACTS_EXPRESSION = new ErlangExpression(NODE_FACTS_SOURCE);

/**
 * The facts in an evaluation result of `NODE_FACTS_SOURCE`, read at `readAt`.
 * @throws Error for a result of another shape.
 */
export function parseNodeFacts(result: Term, readAt: number): NodeFacts {
  const parts = tupleOf(result, 7);
  const [otpRelease, ertsVersion] = [textOf(parts?.[0]), textOf(parts?.[1])];
  const [uptimeMs, processCount, totalMemory] = [integerOf(parts?.[2]), integerOf(parts?.[3]), integerOf(parts?.[4])];
  const apps = listElements(parts?.[5]);
  if (
    otpRelease === undefined ||
    ertsVersion === undefined ||
    uptimeMs === undefined ||
    processCount === undefined ||
    totalMemory === undefined ||
    !apps ||
    parts?.[6]?.type !== 'atom'
  )
    throw new Error(`node facts gave ${erlangTermText(result)}`);
  const applications: RunningApplication[] = [];
  for (const app of apps) {
    const [name, description, version] = tupleOf(app, 3) ?? [];
    if (name?.type !== 'atom') continue;
    applications.push({ name: name.name, description: textOf(description) ?? '', version: textOf(version) ?? '' });
  }
  applications.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const booting = parts[6].name === 'starting';
  return { otpRelease, ertsVersion, uptimeMs, processCount, totalMemory, applications, booting, readAt };
}

/** Where the facts of a shared database are kept (`NodeFactsRepository`). */
export interface SharedNodeFacts {
  put(nodeId: string, facts: NodeFacts): Promise<void>;
  remove(nodeId: string): Promise<void>;
  read(nodeIds: readonly string[]): Promise<Map<string, NodeFacts>>;
}

/**
 * The latest facts per node id, kept while the node is UP (the collector removes them otherwise):
 * in memory for the nodes this instance reads and, with `shared` (several instances on
 * PostgreSQL), also in the database, where `read` finds the nodes other instances read.
 */
export class NodeFactsStore {
  readonly #facts = new Map<string, NodeFacts>();
  readonly #shared: SharedNodeFacts | undefined;

  constructor(shared?: SharedNodeFacts) {
    this.#shared = shared;
  }

  /** Facts this instance read itself. */
  get(nodeId: string): NodeFacts | undefined {
    return this.#facts.get(nodeId);
  }

  /** Facts of these nodes, wherever they were read (absent ones left out). */
  async read(nodeIds: readonly string[]): Promise<Map<string, NodeFacts>> {
    const found = new Map<string, NodeFacts>();
    const elsewhere: string[] = [];
    for (const id of nodeIds) {
      const facts = this.#facts.get(id);
      if (facts) found.set(id, facts);
      else elsewhere.push(id);
    }
    if (this.#shared && elsewhere.length > 0)
      for (const [id, facts] of await this.#shared.read(elsewhere)) found.set(id, facts);
    return found;
  }

  async put(nodeId: string, facts: NodeFacts): Promise<void> {
    this.#facts.set(nodeId, facts);
    await this.#shared?.put(nodeId, facts);
  }

  async remove(nodeId: string): Promise<void> {
    this.#facts.delete(nodeId);
    await this.#shared?.remove(nodeId);
  }

  /** Another instance reads the node now: drops this instance's copy only. */
  forget(nodeId: string): void {
    this.#facts.delete(nodeId);
  }
}
