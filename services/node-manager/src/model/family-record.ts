/** A stored node family; `nodes` are the ids of its live nodes. */
export interface FamilyRecord {
  readonly id: string;
  readonly name: string;
  readonly description: readonly unknown[];
  readonly nodeSelection: string;
  readonly bootstrapStrategy: string;
  readonly bootstrapStrategyOpts: readonly unknown[];
  readonly neighbors: readonly unknown[];
  readonly pluginsOpts: readonly unknown[];
  readonly deleted: boolean;
  readonly nodes: readonly string[];
}
