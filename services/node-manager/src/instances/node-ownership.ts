import type { WorkLeases } from '@triad/db';

/**
 * Which managed nodes this instance monitors (docs/decisions/0027): the node leases it holds
 * (`startWorkLeases` of `@triad/db`, table prefix `nm`; on SQLite every node). An app built
 * without `startNodeManagerServer` has no leases: it owns nothing and adds nodes freely.
 */
export class NodeOwnership {
  /** This instance's id (`GET /healthz` names it). */
  readonly instanceId: string;
  #owned: ReadonlySet<string> = new Set();
  #leases: WorkLeases | undefined;
  #announce: (() => void) | undefined;

  constructor(instanceId: string) {
    this.instanceId = instanceId;
  }

  /** Whether this instance monitors the node now. */
  owns(nodeId: string): boolean {
    return this.#owned.has(nodeId);
  }

  /** How many nodes this instance monitors now. */
  get ownedCount(): number {
    return this.#owned.size;
  }

  /** The nodes owned from now on (the leases' `onChange` says so, before acting on the change). */
  changed(owned: ReadonlySet<string>): void {
    this.#owned = owned;
  }

  /**
   * Uses these leases from now on (the server starts them with this instance's id); `announce`
   * tells the other instances that a node was added (they run a cycle too).
   */
  attach(leases: WorkLeases, announce?: () => void): void {
    this.#leases = leases;
    this.#announce = announce;
  }

  /**
   * After this instance added (and connected) a node: runs a lease cycle now, so the node gets its
   * owner at once; true when that owner is this instance (or there are no leases).
   */
  async settle(nodeId: string): Promise<boolean> {
    if (!this.#leases) return true;
    this.#announce?.();
    await this.#leases.refresh();
    return this.owns(nodeId);
  }
}
