/** One sampled value of one node. */
export interface MetricSample {
  /** Metric family name, e.g. `erlang_memory_bytes`. */
  readonly name: string;
  /** Extra labels besides `node`, e.g. `{ kind: 'total' }`. */
  readonly labels?: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Description of a metric family for `# HELP` / `# TYPE`. */
export interface MetricFamily {
  readonly name: string;
  readonly type: 'gauge' | 'counter';
  readonly help: string;
}

/** The latest samples of one node. */
export interface NodeSamples {
  readonly nodeName: string;
  /** When they were taken, ms since the epoch. */
  readonly at: number;
  readonly samples: readonly MetricSample[];
}

/**
 * The last samples of every node (in memory: metrics are live values, not history). Collectors
 * `put` a node's whole set; `remove` drops a node (plugin off, node deleted).
 */
export class MetricsStore {
  readonly #families = new Map<string, MetricFamily>();
  readonly #nodes = new Map<string, NodeSamples>();

  /** Declares families (first declaration wins); samples of undeclared families are not exported. */
  declare(families: readonly MetricFamily[]): void {
    for (const family of families) if (!this.#families.has(family.name)) this.#families.set(family.name, family);
  }

  put(nodeId: string, samples: NodeSamples): void {
    this.#nodes.set(nodeId, samples);
  }

  remove(nodeId: string): void {
    this.#nodes.delete(nodeId);
  }

  get(nodeId: string): NodeSamples | undefined {
    return this.#nodes.get(nodeId);
  }

  families(): MetricFamily[] {
    return [...this.#families.values()];
  }

  /** Every node's samples, ordered by node name (stable output). */
  nodes(): NodeSamples[] {
    return [...this.#nodes.values()].sort((a, b) => (a.nodeName < b.nodeName ? -1 : a.nodeName > b.nodeName ? 1 : 0));
  }
}
