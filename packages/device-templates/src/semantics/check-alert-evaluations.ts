import type { DocumentPath } from '../problem.js';
import type { SemanticCheck, SemanticReporter } from './semantic-reporter.js';
import { describeEvaluation } from './severity-bands.js';
import { isObject } from '@triad/common';
import { type JsonObject } from './template-walker.js';

/**
 * Checks the expressions-and-logic pairs of `alertConfig.evaluations[]` and of
 * `rowFilterConfig` for what the expression compiler does not see: an evaluation should have at
 * least one expression (`DT_WARN_QUIRK_EVALUATION_NO_EXPRESSIONS`), and each symbol should be
 * declared once (`DT_WARN_SEM_SYMBOL_DUPLICATE`). Whether `logic` names only declared symbols
 * and uses all of them is the compiler's job (`check-expressions.ts`).
 */
export const checkAlertEvaluations: SemanticCheck = (model, reporter) => {
  for (const datapoint of model.datapoints) {
    const alert = datapoint.value['alertConfig'];
    if (isObject(alert) && Array.isArray(alert['evaluations'])) {
      const evaluations: readonly unknown[] = alert['evaluations'];
      for (let i = 0; i < evaluations.length; i++) {
        const evaluation: unknown = evaluations[i];
        if (!isObject(evaluation)) continue;
        const owner: Owner = { datapointPath: datapoint.path, evaluation, index: i };
        const expressions = evaluation['expressions'];
        if (Array.isArray(expressions) && expressions.length === 0) {
          const subject = describeEvaluation(evaluation, i);
          reporter.report('DT_WARN_QUIRK_EVALUATION_NO_EXPRESSIONS', [...ownerPath(owner), 'expressions'], {
            message:
              `${subject.charAt(0).toUpperCase() + subject.slice(1)} has no expressions, so its logic has no symbol ` +
              `to combine ` +
              'and the alert cannot be raised from the value; add an {expression, symbol} entry or remove the ' +
              'evaluation.',
            found: [],
          });
          continue;
        }
        checkSymbols(expressions, owner, reporter);
      }
    }
    const rowFilter = datapoint.value['rowFilterConfig'];
    if (isObject(rowFilter)) {
      checkSymbols(
        rowFilter['expressions'],
        { datapointPath: datapoint.path, evaluation: undefined, index: 0 },
        reporter,
      );
    }
  }
};

/** Where a pair of expressions and logic sits: an evaluation of a datapoint, or its row filter. */
interface Owner {
  readonly datapointPath: DocumentPath;
  /** The evaluation, or undefined for `rowFilterConfig`. */
  readonly evaluation: JsonObject | undefined;
  readonly index: number;
}

// Paths and names are built only when there is something to report.
function ownerPath(owner: Owner): DocumentPath {
  return owner.evaluation === undefined
    ? [...owner.datapointPath, 'rowFilterConfig']
    : [...owner.datapointPath, 'alertConfig', 'evaluations', owner.index];
}

function ownerName(owner: Owner): string {
  return owner.evaluation === undefined ? 'the row filter' : describeEvaluation(owner.evaluation, owner.index);
}

/** Reports symbols declared twice in one `expressions[]`: logic can only refer to one of them. */
function checkSymbols(expressions: unknown, owner: Owner, reporter: SemanticReporter): void {
  if (!Array.isArray(expressions)) return;
  const declared = new Map<string, number>();
  for (let i = 0; i < expressions.length; i++) {
    const entry: unknown = expressions[i];
    if (!isObject(entry) || typeof entry['symbol'] !== 'string') continue;
    const symbol = entry['symbol'];
    const first = declared.get(symbol);
    if (first === undefined) {
      declared.set(symbol, i);
      continue;
    }
    const path = ownerPath(owner);
    reporter.report('DT_WARN_SEM_SYMBOL_DUPLICATE', [...path, 'expressions', i, 'symbol'], {
      message:
        `The symbol '${symbol}' of ${ownerName(owner)} is already declared at ` +
        `${reporter.describePlace([...path, 'expressions', first, 'symbol'])}; logic can only refer to one of them, ` +
        `so rename this one.`,
      found: symbol,
    });
  }
}
