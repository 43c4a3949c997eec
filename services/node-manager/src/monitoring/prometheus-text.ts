import type { MetricsStore } from './metrics-store.js';

/** Content type of the Prometheus text exposition format 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A label value escaped as the format demands (`\\`, `"`, newline). */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function sampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/**
 * The store in the Prometheus text format: per declared family `# HELP` and `# TYPE` then one
 * line per node (`name{node="a@h",...} value`), families with no sample left out; ends with a newline.
 */
export function prometheusText(store: MetricsStore): string {
  const nodes = store.nodes();
  const lines: string[] = [];
  for (const family of store.families()) {
    const rows: string[] = [];
    for (const node of nodes) {
      for (const sample of node.samples) {
        if (sample.name !== family.name) continue;
        const labels = [['node', node.nodeName] as const, ...Object.entries(sample.labels ?? {})]
          .map(([k, v]) => `${k}="${escapeLabelValue(v)}"`)
          .join(',');
        rows.push(`${family.name}{${labels}} ${sampleValue(sample.value)}`);
      }
    }
    if (rows.length === 0) continue;
    lines.push(
      `# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`,
      `# TYPE ${family.name} ${family.type}`,
      ...rows,
    );
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Name of the gauge telling whether each managed node is UP (a Triad addition). */
export const NODE_UP_METRIC = 'triad_node_up';

/**
 * `triad_node_up{node="a@h"} 1|0` for every managed node (1 when UP), ordered by name, with its
 * `# HELP` and `# TYPE`; empty without nodes.
 */
export function nodeUpText(nodes: readonly { readonly name: string; readonly up: boolean }[]): string {
  if (nodes.length === 0) return '';
  const rows = [...nodes]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((n) => `${NODE_UP_METRIC}{node="${escapeLabelValue(n.name)}"} ${n.up ? 1 : 0}`);
  return [
    `# HELP ${NODE_UP_METRIC} 1 when the managed node is UP (connected), else 0 (STOPPED or DOWN).`,
    `# TYPE ${NODE_UP_METRIC} gauge`,
    ...rows,
    '',
  ].join('\n');
}
