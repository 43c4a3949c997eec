import type { DocumentPath } from '../problem.js';
import { referencedSymbols } from './logic-symbols.js';
import { listOf, quote, type SemanticCheck, type SemanticReporter } from './semantic-reporter.js';
import { describeEvaluation } from './severity-bands.js';
import { suggestName } from './suggest-name.js';
import { isObject, type JsonObject } from './template-walker.js';

/**
 * Checks the expressions-and-logic pairs of `alertConfig.evaluations[]` and of
 * `rowFilterConfig`: an evaluation should have at least one expression, symbols should be
 * declared once, `logic` should name only declared symbols, and every declared symbol should be
 * used in `logic`.
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
              `${subject.charAt(0).toUpperCase() + subject.slice(1)} has no expressions, so its logic has no symbol to combine ` +
              'and the alert cannot be raised from the value; add an {expression, symbol} entry or remove the evaluation.',
            found: [],
          });
          continue;
        }
        checkSymbols(expressions, evaluation['logic'], owner, reporter);
      }
    }
    const rowFilter = datapoint.value['rowFilterConfig'];
    if (isObject(rowFilter)) {
      checkSymbols(rowFilter['expressions'], rowFilter['logic'], { datapointPath: datapoint.path, evaluation: undefined, index: 0 }, reporter);
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

/** Cross-checks the symbols of `expressions[]` against the identifiers used in `logic`. */
function checkSymbols(expressions: unknown, logic: unknown, owner: Owner, reporter: SemanticReporter): void {
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
        `${reporter.describePlace([...path, 'expressions', first, 'symbol'])}; logic can only refer to one of them, so rename this one.`,
      found: symbol,
    });
  }
  if (typeof logic !== 'string') return;
  const names = [...declared.keys()];
  const referenced = referencedSymbols(logic, names);
  let usedCount = 0;
  for (const name of referenced) {
    if (declared.has(name)) {
      usedCount++;
      continue;
    }
    const suggestion = suggestName(name, names);
    reporter.report('DT_WARN_SEM_LOGIC_SYMBOL_UNDECLARED', [...ownerPath(owner), 'logic'], {
      message:
        `The logic ${quote(logic)} of ${ownerName(owner)} refers to '${name}', which no expression declares as its symbol` +
        (suggestion !== undefined ? `; did you mean '${suggestion}'?` : names.length > 0 ? `; declared symbols: ${listOf(names)}.` : '.'),
      found: name,
      allowed: names.join(', '),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  }
  if (usedCount === declared.size) return;
  for (const [name, index] of declared) {
    if (referenced.includes(name)) continue;
    reporter.report('DT_WARN_SEM_LOGIC_SYMBOL_UNUSED', [...ownerPath(owner), 'expressions', index, 'symbol'], {
      message:
        `The symbol '${name}' of ${ownerName(owner)} is not used in its logic ${quote(logic)}, so its expression never ` +
        'affects the result; combine it in logic or remove the expression.',
      found: name,
    });
  }
}
