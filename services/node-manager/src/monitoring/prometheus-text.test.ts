import { describe, expect, it } from 'vitest';
import { MetricsStore } from './metrics-store.js';
import { escapeLabelValue, prometheusText } from './prometheus-text.js';

describe('prometheusText', () => {
  it('writes HELP and TYPE once per family and one line per node, nodes ordered by name', () => {
    const store = new MetricsStore();
    store.declare([
      { name: 'erlang_memory_bytes', type: 'gauge', help: 'Memory.' },
      { name: 'erlang_reductions_total', type: 'counter', help: 'Reductions.' },
      { name: 'unused', type: 'gauge', help: 'Never sampled.' },
    ]);
    store.put('2', {
      nodeName: 'b@h',
      at: 0,
      samples: [{ name: 'erlang_memory_bytes', labels: { kind: 'total' }, value: 20 }],
    });
    store.put('1', {
      nodeName: 'a@h',
      at: 0,
      samples: [
        { name: 'erlang_memory_bytes', labels: { kind: 'total' }, value: 10 },
        { name: 'erlang_reductions_total', value: 5 },
      ],
    });
    expect(prometheusText(store)).toBe(
      [
        '# HELP erlang_memory_bytes Memory.',
        '# TYPE erlang_memory_bytes gauge',
        'erlang_memory_bytes{node="a@h",kind="total"} 10',
        'erlang_memory_bytes{node="b@h",kind="total"} 20',
        '# HELP erlang_reductions_total Reductions.',
        '# TYPE erlang_reductions_total counter',
        'erlang_reductions_total{node="a@h"} 5',
        '',
      ].join('\n'),
    );
    store.remove('1');
    store.remove('2');
    expect(prometheusText(store)).toBe('');
  });

  it('escapes backslashes, quotes and newlines in label values', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });
});
