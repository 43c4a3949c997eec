import { describeEachDatabase } from '@triad/db/testing';
import { expect, it } from 'vitest';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { useTestApp } from '../test-support/node-manager-test-app.js';
import { pollUntil } from '../test-support/poll-until.js';
import type { Collector, MonitoredNode } from './collector.js';
import { NodeMonitor } from './node-monitor.js';

/** A collector that records what the monitor asks of it. */
class RecordingCollector implements Collector {
  readonly plugin = 'wombat_plugin_recording';
  readonly defaultOn = true;
  readonly intervalMs = 60_000;
  readonly calls: string[] = [];
  collect(node: MonitoredNode): Promise<void> {
    this.calls.push(`collect ${node.name}`);
    return Promise.resolve();
  }
  stop(node: MonitoredNode): Promise<void> {
    this.calls.push(`stop ${node.name}`);
    return Promise.resolve();
  }
  paused(node: MonitoredNode): Promise<void> {
    this.calls.push(`paused ${node.name}`);
    return Promise.resolve();
  }
}

describeEachDatabase<NodeManagerDatabase>('node monitor', (getDb) => {
  const t = useTestApp(getDb);

  it('pauses and restarts collection when a node leaves UP and is back before the change is handled', async () => {
    const node = await t.core.topology.addNode('flap@h', 'c');
    const collector = new RecordingCollector();
    const monitor = new NodeMonitor({ core: t.core, collectors: [collector] });
    await monitor.start();
    const state = (value: string) =>
      t.core.events.emit({ type: 'node_state', nodeId: node.id, nodeName: 'flap@h', state: value, deleted: false });
    try {
      state('UP');
      await pollUntil(
        () => Promise.resolve(collector.calls.length === 1 ? true : undefined),
        5_000,
        'the first collection',
      );
      // DOWN and UP again in one turn: when the monitor gets to it, the node is UP already.
      state('DOWN');
      state('UP');
      await pollUntil(
        () => Promise.resolve(collector.calls.length === 3 ? true : undefined),
        5_000,
        'a fresh collection',
      );
      expect(collector.calls).toEqual(['collect flap@h', 'paused flap@h', 'collect flap@h']);
      // A repeated UP is no new connection: nothing restarts.
      state('UP');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(collector.calls).toHaveLength(3);
    } finally {
      await monitor.close();
    }
  });
});
