import type { Collector, MonitoredNode } from './collector.js';

/**
 * Several collectors behind one plugin, run one after the other at the first one's interval (the
 * monitor keeps one loop per plugin). A collector that fails does not keep the others from
 * running; the first failure is thrown after all have run.
 */
export class CollectorGroup implements Collector {
  readonly plugin: string;
  readonly defaultOn: boolean;
  readonly intervalMs: number;
  readonly #members: readonly Collector[];

  /** @throws Error when the members do not share one plugin. */
  constructor(members: readonly [Collector, ...Collector[]]) {
    const [first] = members;
    if (members.some((m) => m.plugin !== first.plugin || m.defaultOn !== first.defaultOn))
      throw new Error('the collectors of a group share one plugin and its default state');
    this.plugin = first.plugin;
    this.defaultOn = first.defaultOn;
    this.intervalMs = first.intervalMs;
    this.#members = members;
  }

  collect(node: MonitoredNode): Promise<void> {
    return this.#each((member) => member.collect(node));
  }

  stop(node: MonitoredNode): Promise<void> {
    return this.#each((member) => member.stop(node));
  }

  paused(node: MonitoredNode): Promise<void> {
    return this.#each((member) => member.paused?.(node));
  }

  released(node: MonitoredNode): void {
    for (const member of this.#members) member.released?.(node);
  }

  async #each(run: (member: Collector) => Promise<void> | undefined): Promise<void> {
    const failures: unknown[] = [];
    for (const member of this.#members) {
      try {
        await run(member);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
