import type { CompiledExpression } from '../expressions/expression-types.js';
import type { DocumentPath } from '../problem.js';
import type { ProblemDetails } from './semantic-reporter.js';
import type { SemanticProblemCode } from './semantic-problems.js';
import type { DatapointEntry, SetEntry } from './template-walker.js';

/** A calculated datapoint whose `calcConfig.expression` compiled. */
export interface CalcExpression {
  readonly datapoint: DatapointEntry;
  readonly expression: CompiledExpression;
}

/**
 * Where the calc checks report: a problem of `code` on the string at `path`, placed at `offset`
 * inside it (undefined: at the string's start).
 */
export type CalcProblemSink = (
  code: SemanticProblemCode,
  path: DocumentPath,
  offset: number | undefined,
  details: ProblemDetails,
) => void;

/**
 * Checks the compiled `calcConfig` expressions of one set:
 * - `DT_WARN_SEM_CALC_RAW_VALUE`: the expression reads `datapoint.rawValue`, but a calculated
 *   datapoint is not read from a driver and has no raw value;
 * - `DT_ERR_SEM_CALC_CYCLE`: calculated datapoints read each other (`datapoints.<id>`) in a
 *   cycle, so none of them can be computed first. Reported once per cycle, on the member that
 *   comes first in the document, at its reference to the next member.
 */
export function checkCalcExpressions(set: SetEntry, calcs: readonly CalcExpression[], report: CalcProblemSink): void {
  for (const calc of calcs) {
    if (!calc.expression.references.usesRawValue) continue;
    const source = calc.expression.source;
    report(
      'DT_WARN_SEM_CALC_RAW_VALUE',
      [...calc.datapoint.path, 'calcConfig', 'expression'],
      RAW_VALUE_READ.exec(source)?.index,
      {
        message:
          `The calcConfig expression of datapoint ${nameOf(calc.datapoint)} in set ${setName(set)} reads ` +
          `datapoint.rawValue, but a calculated ` +
          'datapoint is not read from a driver and has no raw value; compute it from other datapoints ' +
          '(datapoints.<id>.value) instead.',
        found: source,
      },
    );
  }
  for (const cycle of findCycles(set, calcs)) {
    const first = cycle[0];
    if (first === undefined) continue;
    const next = (cycle[1] ?? first).datapoint;
    const source = first.expression.source;
    const names = [...cycle, first].map((c) => nameOf(c.datapoint)).join(' -> ');
    report(
      'DT_ERR_SEM_CALC_CYCLE',
      [...first.datapoint.path, 'calcConfig', 'expression'],
      referenceOffset(source, next.id ?? ''),
      {
        message:
          cycle.length === 1
            ? `The calcConfig expression of datapoint ${nameOf(first.datapoint)} in set ${setName(set)} reads ` +
              `datapoints.${next.id ?? ''}, its own value, ` +
              'which it has not computed yet; read the inputs it is computed from instead.'
            : `The calculated datapoints ${names} of set ${setName(set)} read each other in a cycle, so none of ` +
              `them can be computed first; ` +
              'remove one of these references.',
        found: cycle.map((c) => c.datapoint.id ?? '').join(' -> '),
      },
    );
  }
}

/**
 * `datapoint.rawValue` or `datapoint['rawValue']`: where to point the raw-value warning (detection is the
 * compiler's).
 */
const RAW_VALUE_READ = /\bdatapoint\s*(?:\.\s*rawValue\b|\[\s*(['"`])rawValue\1\s*\])/;

/** Offset of `datapoints.<id>` or `datapoints['<id>']` in `source`, or undefined. */
function referenceOffset(source: string, id: string): number | undefined {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\bdatapoints\\s*(?:\\.\\s*${escaped}(?![\\w$])|\\[\\s*(['"\`])${escaped}\\1\\s*\\])`).exec(source)
    ?.index;
}

/**
 * The cycles among the calculated datapoints of a set, each as its members in reading order,
 * starting at the member first in the document. Datapoints outside every cycle are peeled off
 * first (Kahn); from each datapoint left, following one remaining input at a time must come
 * back to a datapoint already seen, which closes a cycle when it was seen on the same walk.
 */
function findCycles(set: SetEntry, calcs: readonly CalcExpression[]): CalcExpression[][] {
  const byDatapoint = new Map<DatapointEntry, CalcExpression>(calcs.map((c) => [c.datapoint, c]));
  const inputs = new Map<CalcExpression, CalcExpression[]>();
  const readers = new Map<CalcExpression, CalcExpression[]>();
  for (const calc of calcs) {
    const list: CalcExpression[] = [];
    for (const id of calc.expression.references.datapoints) {
      const datapoint = set.byId.get(id);
      const input = datapoint === undefined ? undefined : byDatapoint.get(datapoint);
      if (input === undefined || list.includes(input)) continue;
      list.push(input);
      const reading = readers.get(input) ?? [];
      reading.push(calc);
      readers.set(input, reading);
    }
    inputs.set(calc, list);
  }
  const waiting = new Map<CalcExpression, number>(calcs.map((c) => [c, inputs.get(c)?.length ?? 0]));
  const ready = calcs.filter((c) => waiting.get(c) === 0);
  for (let done = ready.pop(); done !== undefined; done = ready.pop()) {
    waiting.delete(done);
    for (const reader of readers.get(done) ?? []) {
      const left = (waiting.get(reader) ?? 0) - 1;
      waiting.set(reader, left);
      if (left === 0) ready.push(reader);
    }
  }
  const cycles: CalcExpression[][] = [];
  const seenOnWalk = new Map<CalcExpression, number>();
  calcs.forEach((start, walk) => {
    if (!waiting.has(start) || seenOnWalk.has(start)) return;
    const path: CalcExpression[] = [];
    let current = start;
    while (!seenOnWalk.has(current)) {
      seenOnWalk.set(current, walk);
      path.push(current);
      current = (inputs.get(current) ?? []).find((input) => waiting.has(input)) as CalcExpression;
    }
    if (seenOnWalk.get(current) !== walk) return;
    // Reading order a <- b means a reads b; list the cycle as "a reads b reads ... reads a".
    const cycle = path.slice(path.indexOf(current));
    const firstInDocument = cycle.reduce(
      (best, c, i) => (calcs.indexOf(c) < calcs.indexOf(cycle[best] as CalcExpression) ? i : best),
      0,
    );
    cycles.push([...cycle.slice(firstInDocument), ...cycle.slice(0, firstInDocument)]);
  });
  return cycles;
}

/** Names a datapoint for a message: `"cpu"`, or `datapoints[3]` when it has no id. */
export function nameOf(datapoint: DatapointEntry): string {
  return datapoint.id !== undefined
    ? `"${datapoint.id}"`
    : `datapoints[${String(datapoint.path[datapoint.path.length - 1])}]`;
}

/** Names a set for a message: `"system"`, or `datapointSets[1]` when it has no id. */
export function setName(set: SetEntry): string {
  return set.id !== undefined ? `"${set.id}"` : `datapointSets[${String(set.path[set.path.length - 1])}]`;
}
