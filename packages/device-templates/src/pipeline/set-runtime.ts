import type { SetPlan } from './compile-pipeline.js';
import { OriginTable } from './row-state.js';

/** One evaluator's state of one set: its rows by origin, and scratch for the row being processed. */
export class SetRuntime {
  readonly plan: SetPlan;
  readonly origins = new Map<string, OriginTable>();
  /** Datapoints whose value changed in the row being processed: flags, and the order of change. */
  readonly dirty: Uint8Array;
  readonly changed: Int32Array;
  changedCount = 0;
  #lastOrigin: string | undefined;
  #lastTable: OriginTable | undefined;

  constructor(plan: SetPlan) {
    this.plan = plan;
    this.dirty = new Uint8Array(plan.datapoints.length);
    this.changed = new Int32Array(plan.datapoints.length);
  }

  /** The rows of `origin`, created empty on first use (the last origin is remembered: the common case is one). */
  table(origin: string): OriginTable {
    if (origin === this.#lastOrigin && this.#lastTable !== undefined) return this.#lastTable;
    let table = this.origins.get(origin);
    if (table === undefined) {
      table = new OriginTable();
      this.origins.set(origin, table);
    }
    this.#lastOrigin = origin;
    this.#lastTable = table;
    return table;
  }

  markDirty(index: number): void {
    if (this.dirty[index] === 0) {
      this.dirty[index] = 1;
      this.changed[this.changedCount++] = index;
    }
  }

  /** The `i`th datapoint (index) whose value changed in the row being processed; `i` below `changedCount`. */
  changedAt(i: number): number {
    return this.changed[i] ?? -1;
  }

  clearDirty(): void {
    for (let i = 0; i < this.changedCount; i++) this.dirty[this.changedAt(i)] = 0;
    this.changedCount = 0;
  }

  reset(): void {
    this.origins.clear();
    this.#lastOrigin = undefined;
    this.#lastTable = undefined;
  }
}
