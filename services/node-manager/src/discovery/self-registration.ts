import { atom, tuple, tupleOf, type Term } from '@triad/erlang-dist';
import type { AddNodeOptions, NewFamily } from '../commands/topology-commands.js';
import type { FamilyRecord } from '../model/family-record.js';
import type { NodeRecord } from '../model/node-record.js';

/** The registered name WombatOAM's discovery library calls. */
export const DISCOVERY_PROCESS_NAME = 'wo_discover_dynamic_nodes';

/** Longest node name a node may register (an Erlang atom holds 255 characters). */
export const MAX_REGISTERED_NAME_LENGTH = 255;

/** What self-registration needs of the topology: the add-node command of `POST /api/topo/nodes`. */
export interface SelfRegistrationTopology {
  addNode(name: string, cookie: string, options?: AddNodeOptions): Promise<NodeRecord>;
  createFamily(input: NewFamily): Promise<FamilyRecord>;
  /** Keeps the node manager's own node name from ever being added (peers list it in `nodes()`). */
  reserveOwnName(name: string): void;
}

/** What self-registration reads. */
export interface SelfRegistrationStore {
  findLiveNodeByName(name: string): Promise<NodeRecord | undefined>;
  findLiveFamilyByName(name: string): Promise<FamilyRecord | undefined>;
}

/** Options of `SelfRegistration`. */
export interface SelfRegistrationOptions {
  readonly topology: SelfRegistrationTopology;
  readonly store: SelfRegistrationStore;
  /** Family name to add nodes to (created when missing); empty: the family of the node's release. */
  readonly family: string;
  /** Nodes added per minute at most. */
  readonly perMinute: number;
  readonly now?: () => number;
  /** Told of every node added (for the log: the system added it, no user). */
  readonly onAdded?: (node: NodeRecord, caller: string) => void;
  /** Told of every refused or failed registration. */
  readonly onRefused?: (caller: string, reason: string, error?: unknown) => void;
}

const ONE_MINUTE_MS = 60_000;

/**
 * Answers WombatOAM's discovery call `{auto_discover_node, Node, Cookie}` made by `gen_server:call`
 * to `wo_discover_dynamic_nodes`: adds `Node` with `Cookie` through the add-node command (as the
 * system; the cookie is sealed like every other) and replies `ok`, also when the node is managed
 * already (no duplicate). A node registers itself only: `Node` must be the calling node. Replies
 * `{error, Reason}` otherwise: `unknown_request`, `bad_node_name` (not `alive@host`, longer than 255),
 * `bad_cookie` (not an atom or text), `not_the_caller`, `busy` (more than `perMinute` nodes added in
 * the last minute) and `add_failed` (the node could not be added; the log says why).
 */
export class SelfRegistration {
  readonly #o: SelfRegistrationOptions;
  readonly #now: () => number;
  /** When each node of the last minute was added, oldest first. */
  readonly #recent: number[] = [];

  constructor(options: SelfRegistrationOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** The `GenCallHandler` of `wo_discover_dynamic_nodes`. */
  async handle(request: Term, caller: string): Promise<Term> {
    const t = tupleOf(request, 3);
    if (t?.[0]?.type !== 'atom' || t[0].name !== 'auto_discover_node') return error('unknown_request');
    const [, node, cookieTerm] = t;
    const name = node?.type === 'atom' ? node.name : undefined;
    if (name === undefined || name.length > MAX_REGISTERED_NAME_LENGTH || !/^[^@]+@[^@]+$/.test(name))
      return error('bad_node_name');
    const cookie = textOf(cookieTerm);
    if (cookie === undefined || cookie === '' || cookie.length > 255) return error('bad_cookie');
    if (name !== caller) return this.#refuse(caller, 'not_the_caller');
    if (await this.#o.store.findLiveNodeByName(name)) return atom('ok');
    if (!this.#admit()) return this.#refuse(caller, 'busy');
    try {
      const familyId = this.#o.family === '' ? undefined : (await this.#family()).id;
      const added = await this.#o.topology.addNode(name, cookie, familyId === undefined ? {} : { familyId });
      this.#o.onAdded?.(added, caller);
      return atom('ok');
    } catch (e) {
      // Added meanwhile (a repeated call racing the first): managed, so `ok`.
      if ((e as { code?: unknown }).code === 'NM_ERR_NODE_EXISTS') return atom('ok');
      return this.#refuse(caller, 'add_failed', e);
    }
  }

  #refuse(caller: string, reason: string, cause?: unknown): Term {
    this.#o.onRefused?.(caller, reason, cause);
    return error(reason);
  }

  /** Counts one registration in the last minute's budget; false when it is spent. */
  #admit(): boolean {
    const now = this.#now();
    while (this.#recent.length > 0 && this.#recent[0]! <= now - ONE_MINUTE_MS) this.#recent.shift();
    if (this.#recent.length >= this.#o.perMinute) return false;
    this.#recent.push(now);
    return true;
  }

  /** The family being found or created, shared by registrations arriving meanwhile. */
  #familyPending: Promise<FamilyRecord> | undefined;

  /**
   * The family to add nodes to, created when missing. One lookup or creation at a time: nodes
   * that register together would otherwise each find none and create one each, since
   * `createFamily` checks the name before it inserts (seen on PostgreSQL: three nodes, two families).
   */
  #family(): Promise<FamilyRecord> {
    this.#familyPending ??= this.#findOrCreateFamily().finally(() => {
      this.#familyPending = undefined;
    });
    return this.#familyPending;
  }

  async #findOrCreateFamily(): Promise<FamilyRecord> {
    const name = this.#o.family;
    const found = await this.#o.store.findLiveFamilyByName(name);
    if (found) return found;
    try {
      return await this.#o.topology.createFamily({
        name,
        bootstrap_node_selection: 'random',
        bootstrap_strategy: 'none',
        bootstrap_strategy_opts: [],
      });
    } catch (e) {
      const created = await this.#o.store.findLiveFamilyByName(name); // created meanwhile
      if (created) return created;
      throw e;
    }
  }
}

function error(reason: string): Term {
  return tuple(atom('error'), atom(reason));
}

/** A cookie as `erlang:get_cookie()` gives it (an atom), or as text (a binary or a string). */
function textOf(term: Term | undefined): string | undefined {
  if (term?.type === 'atom') return term.name;
  if (term?.type === 'string') return term.value;
  if (term?.type === 'binary') return Buffer.from(term.bytes).toString('latin1');
  return undefined;
}
