/**
 * Evaluations per second of template expressions (issue 3):
 * - rule 1: `datapoint.value > N` spread over 100 distinct rules (N = 0..99), evaluated in turn;
 * - rule 2: `(datapoint.value > 30 && datapoint.rawValue !== null) || /^5\./.test(String(datapoint.value))`;
 * for Triad's compiled closures, beside the same rules compiled by `new Function` (the floor:
 * what V8 does with plain JavaScript; allowed here only, never in src) and by mathjs (a popular
 * evaluator, rule 1 only: it has no regex literals). Also: re2-wasm alone on `/^5\./`, and rule 2
 * with its regex forced onto RE2. Aims: 20 M/s for rule 1, 3 M/s for rule 2.
 * Run: `npm run bench -- expression` (about 20 s).
 */
import { createRequire } from 'node:module';
import { compile as mathCompile } from 'mathjs';
import { compileExpression, type EvaluationContext } from '@triad/device-templates';
import { bestRate } from './bench-utils.js';

const RULES = 100;
const RULE_2 = '(datapoint.value > 30 && datapoint.rawValue !== null) || /^5\\./.test(String(datapoint.value))';
const MEASURE_MS = Number(process.env['BENCH_MS'] ?? 1_000);
const ROUNDS = 3;

// Inputs cycle through numbers above and below the thresholds, strings, nulls and 5.x versions,
// so that every branch of rule 2 runs (about half of the evaluations reach the regex).
const values: readonly unknown[] = [
  12.5,
  31,
  5.2,
  45,
  '5.9.1',
  0,
  77,
  null,
  5.01,
  29.9,
  '4.2',
  99,
  5,
  63.5,
  '31',
  50.5,
];
const contexts: readonly EvaluationContext[] = values.map((value, i) => ({
  datapoint: { value, rawValue: i % 5 === 0 ? null : value, quality: 'good', timestamp: 1_700_000_000_000 + i },
}));

type Evaluate = (context: EvaluationContext) => unknown;

/** Best of `ROUNDS` timed runs of `MEASURE_MS` each: evaluations per second. */
function rate(label: string, evaluators: readonly Evaluate[]): number {
  const count = evaluators.length;
  const inputs = contexts.length;
  let sink = 0;
  const batch = (n: number) => {
    for (let i = 0; i < n; i++) if (evaluators[i % count]!(contexts[i % inputs]!) === true) sink++;
  };
  const best = bestRate(batch, { warmup: 200_000, chunk: 100_000, rounds: ROUNDS, measureMs: MEASURE_MS });
  if (sink < 0) console.log(sink);
  console.log(`${label.padEnd(58)} ${(best / 1e6).toFixed(2).padStart(7)} M/s`);
  return best;
}

function triad(source: string): Evaluate {
  const result = compileExpression(source, { kind: 'boolean' });
  if (!result.ok) throw new Error(`${source}: ${JSON.stringify(result.issues)}`);
  return result.expression.evaluate;
}

function nativeFunction(source: string): Evaluate {
  // The floor this bench measures against: V8 compiling the rule as JavaScript; fixed bench text, never user input.
  // eslint-disable-next-line no-new-func, @typescript-eslint/no-implied-eval -- see the line above
  return new Function('context', `const datapoint = context.datapoint; return (${source});`) as Evaluate;
}

function mathjs(threshold: number): Evaluate {
  const code = mathCompile(`value > ${threshold}`);
  return (context) => {
    const value = context.datapoint.value;
    // mathjs compares numbers only; feed it the numeric cases like the other two see them.
    if (typeof value !== 'number') return false;
    const result: unknown = code.evaluate({ value });
    return result;
  };
}

console.log(`node ${process.version}; best of ${ROUNDS} runs of ${MEASURE_MS} ms; ${contexts.length} inputs in turn\n`);
const thresholds = Array.from({ length: RULES }, (_, i) => i);

console.log(`rule 1: datapoint.value > N, ${RULES} distinct rules`);
const ours1 = rate(
  '  triad (compiled closures)',
  thresholds.map((n) => triad(`datapoint.value > ${n}`)),
);
const native1 = rate(
  '  new Function (floor)',
  thresholds.map((n) => nativeFunction(`datapoint.value > ${n}`)),
);
rate('  mathjs compile().evaluate', thresholds.map(mathjs));

console.log(`\nrule 2: ${RULE_2}`);
const ours2 = rate('  triad (native fast path for /^5\\./)', [triad(RULE_2)]);
const native2 = rate('  new Function (floor)', [nativeFunction(RULE_2)]);
const forced = triad(RULE_2.replace('/^5\\./', '/^5\\.|\\b\\B/i'));
rate('  triad, regex forced onto RE2 (/^5\\.|\\b\\B/i)', [forced]);

const { RE2 } = createRequire(import.meta.url)('re2-wasm') as {
  RE2: new (p: string, f: string) => { test(s: string): boolean };
};
const re2 = new RE2('^5\\.', 'u');
const strings = values.map(String);
const re2Rate = rate('  re2-wasm alone: /^5\\./u.test(string)', [
  (c) => re2.test(strings[(c.datapoint.timestamp ?? 0) % strings.length]!),
]);

console.log(
  `\nrule 1: ${(ours1 / 1e6).toFixed(1)} M/s (aim 20; ${((ours1 / native1) * 100).toFixed(0)}% of new Function); ` +
    `rule 2: ${(ours2 / 1e6).toFixed(1)} M/s (aim 3; ${((ours2 / native2) * 100).toFixed(0)}% of new Function); ` +
    `re2-wasm alone ${(re2Rate / 1e6).toFixed(2)} M/s`,
);
