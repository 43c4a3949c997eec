/**
 * Validation of a generated template with 5,000 datapoints (about 6 MB as JSON, 4.5 MB as YAML):
 * milliseconds per full validation (parse + positions + schema + semantic checks + messages),
 * beside floors measured in the same run: JSON.parse + ajv on the parsed object, the `yaml`
 * package's parseDocument (positions, slow) and js-yaml's load (no positions).
 * Aims (issue 2): JSON under 120 ms, YAML with positions under 500 ms. Issue 16: at most twice
 * the JSON.parse + ajv floor for JSON and twice js-yaml's load for YAML (the ratios printed last,
 * measured in pairs so that a shared machine's changing load falls on both sides alike).
 */
import jsYaml from 'js-yaml';
import { parseDocument } from 'yaml';
import { templateValidator, validateSource } from '@triad/device-templates';
import { generateLargeTemplate } from './generate-large-template.js';
import { median, printTable, time } from './bench-utils.js';

const DATAPOINTS = 5_000;
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);

const template = generateLargeTemplate(DATAPOINTS);
const jsonText = JSON.stringify(template, null, 2);
const yamlText = jsYaml.dump(template, { lineWidth: 120, noRefs: true });
const mb = (s: string) => (Buffer.byteLength(s) / 1024 / 1024).toFixed(2);
console.log(
  `template: ${DATAPOINTS} datapoints; JSON ${mb(jsonText)} MB, YAML ${mb(yamlText)} MB; median of ${RUNS} runs`,
);

for (const [name, text, format] of [
  ['JSON', jsonText, 'json'],
  ['YAML', yamlText, 'yaml'],
] as const) {
  const result = validateSource(text, { file: `bench.ndst.${format}`, format });
  if (!result.valid) {
    console.log(
      `warning: the generated ${name} template is not valid (${result.errors.length} errors), first:`,
      result.errors[0],
    );
  }
}

// The floor uses the same compiled ajv validator as the toolkit, without loading, positions,
// semantic checks or messages.
const ajvValidate = templateValidator();

const rows: [string, number, number][] = [];
const measure = (label: string, fn: () => unknown, runs = RUNS) => {
  const samples = time(fn, runs);
  rows.push([label, median(samples), samples[samples.length - 1]!]);
};

measure('floor: JSON.parse + ajv', () => ajvValidate(JSON.parse(jsonText)));
measure('triad: validate JSON (full)', () => validateSource(jsonText, { format: 'json' }));
measure('floor: js-yaml load (no positions)', () => jsYaml.load(yamlText));
measure('floor: yaml parseDocument (positions)', () => parseDocument(yamlText), 3);
measure('triad: validate YAML (full)', () => validateSource(yamlText, { format: 'yaml' }));

printTable(['what', 'median ms', 'max ms'], rows);

/**
 * The ratios, measured in pairs: the floor, then Triad, one right after the other, so that both of
 * a pair meet the same load on a shared machine; the median ratio of the pairs, and their spread.
 */
const pairedRatio = (triad: () => unknown, floor: () => unknown) => {
  const ratios: number[] = [];
  for (let i = 0; i < 2 * RUNS + 1; i++) {
    const [floorMs] = time(floor, 1, i === 0 ? 2 : 0);
    const [triadMs] = time(triad, 1, i === 0 ? 2 : 0);
    ratios.push(triadMs! / floorMs!);
  }
  ratios.sort((x, y) => x - y);
  const [low, high] = [ratios[0]!, ratios[ratios.length - 1]!];
  return `${median(ratios).toFixed(2)}x (pairs from ${low.toFixed(2)} to ${high.toFixed(2)})`;
};
const jsonRatio = pairedRatio(
  () => validateSource(jsonText, { format: 'json' }),
  () => ajvValidate(JSON.parse(jsonText)),
);
const yamlRatio = pairedRatio(
  () => validateSource(yamlText, { format: 'yaml' }),
  () => jsYaml.load(yamlText),
);
console.log(`JSON: validation takes ${jsonRatio} the time of JSON.parse + ajv (aim: at most 2x)`);
console.log(`YAML: validation takes ${yamlRatio} the time of js-yaml's load (aim: at most 2x)`);
