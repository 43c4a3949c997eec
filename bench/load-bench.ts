/**
 * Benchmark of the positioned document loader (packages/device-templates/src/loading).
 *
 *   node --conditions=source --import tsx bench/load-bench.ts [datapoints]
 *
 * Generates a template with 5,000 datapoints (about 6 MB of JSON, 4.5 MB of YAML), then prints
 * the median time of a few runs of: JSON.parse alone, loadDocument on the JSON (text and bytes),
 * js-yaml's load alone (core schema, no positions), loadDocument on the YAML, and the cost of
 * the first 10 positionOf lookups on a freshly loaded document (which includes building the
 * line table). Prints numbers only; it asserts nothing about time.
 */
import yaml from 'js-yaml';
import { loadDocument, type DocumentPath, type LoadedDocument } from '@triad/device-templates';
import { median, time } from './bench-utils.js';
import { generateLargeTemplate } from './generate-large-template.js';

const RUNS = 7;

/** Median wall time of `run`, after one untimed warm-up call. */
function measure(run: () => unknown): number {
  return median(time(run, RUNS, 1));
}

/** Median time of 10 lookups spread over the document, each time on a freshly loaded document. */
function measureLookups(load: () => LoadedDocument, datapoints: number): number {
  const paths: DocumentPath[] = [];
  for (let k = 0; k < 10; k += 1) {
    const index = Math.floor(((k + 0.5) * datapoints) / 10);
    const set = Math.floor(index / 250);
    // Mix number and numeric-string indexes, values and keys, present and missing paths.
    paths.push(
      k % 3 === 0
        ? ['datapointSets', set, 'datapoints', index % 250, 'alertConfig', 'evaluations', 0, 'severity']
        : k % 3 === 1
          ? ['datapointSets', String(set), 'datapoints', String(index % 250), 'commonConfig', 'datapointId']
          : ['datapointSets', set, 'datapoints', index % 250, 'addressConfig', 'missingKey'],
    );
  }
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const document = load();
    const start = performance.now();
    for (const [k, path] of paths.entries()) document.positionOf(path, k % 2 === 0 ? 'value' : 'key');
    samples.push(performance.now() - start);
  }
  return median(samples.sort((a, b) => a - b));
}

function row(label: string, ms: number): void {
  console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms`);
}

const datapoints = Number(process.argv[2] ?? 5000);
const template = generateLargeTemplate(datapoints);
const jsonText = JSON.stringify(template, null, 2);
const jsonBytes = new TextEncoder().encode(jsonText);
const yamlText = yaml.dump(template, { noRefs: true });

console.log(
  `template: ${datapoints} datapoints; ` +
    `JSON ${(jsonText.length / 1e6).toFixed(2)} MB, YAML ${(yamlText.length / 1e6).toFixed(2)} MB`,
);
console.log(`median of ${RUNS} runs, node ${process.version}\n`);

row(
  'JSON.parse alone',
  measure(() => JSON.parse(jsonText)),
);
row(
  'loadDocument JSON (string)',
  measure(() => loadDocument(jsonText, { format: 'json' })),
);
row(
  'loadDocument JSON (UTF-8 bytes)',
  measure(() => loadDocument(jsonBytes, { file: 'large.json' })),
);
row(
  '  + first 10 positionOf on a fresh document',
  measureLookups(() => loadDocument(jsonText, { format: 'json' }), datapoints),
);
row(
  'js-yaml load alone (core schema)',
  measure(() => yaml.load(yamlText, { schema: yaml.CORE_SCHEMA })),
);
row(
  'loadDocument YAML (string)',
  measure(() => loadDocument(yamlText, { format: 'yaml' })),
);
row(
  '  + first 10 positionOf on a fresh document',
  measureLookups(() => loadDocument(yamlText, { format: 'yaml' }), datapoints),
);
