import type { DatapointValue } from '../expressions/expression-types.js';
import type { SetPlan } from './compile-pipeline.js';
import type { AlertPlan, ConditionPlan, DatapointPlan } from './datapoint-plan.js';
import { itemAt } from './item-at.js';
import { failureOf, makeAlertEvent, makeErrorEvent, type Failure } from './pipeline-events.js';
import { pipelineProblems } from './pipeline-problems.js';
import type { PipelineSink } from './pipeline-types.js';
import { ALERT, type EntryState, type RowState } from './row-state.js';
import type { UnitOutput } from './unit-conversion.js';
import { NO_MATCH } from './value-map.js';

/** The mutable form of the expression context, reused for every evaluation. */
interface Context {
  datapoint: DatapointValue;
  datapoints: Readonly<Record<string, DatapointValue>>;
  symbols: Record<string, boolean>;
}

/** The value being worked on, before it is committed to the row. */
interface Working {
  value: unknown;
  rawValue: unknown;
  quality: string;
  timestamp: number;
}

/**
 * Runs the per-datapoint stages (default, value map, conversion, units, then alerts) against
 * one row, and the calculations that depend on it. Holds the scratch objects the expressions are
 * evaluated against, so the hot path allocates only its results and events.
 */
export class DatapointRunner {
  readonly #working: Working = { value: null, rawValue: null, quality: 'good', timestamp: 0 };
  // No prototype for symbols: a symbol may be named __proto__.
  readonly #context: Context = {
    datapoint: this.#working,
    datapoints: {},
    symbols: Object.create(null) as Record<string, boolean>,
  };
  readonly #units: UnitOutput = { value: 0, unit: '' };

  /**
   * Stages 1–4 for one reading, then commits the result to the row (alerts run later, once
   * the calculations of the update are done: `runAlerts`).
   * `value`/`rawValue` null or undefined mean "no reading". Returns false when a stage failed:
   * an `evaluation-error` event went to the sink and the row keeps the previous value.
   */
  process(
    set: SetPlan,
    row: RowState,
    plan: DatapointPlan,
    rawIn: unknown,
    valueIn: unknown,
    quality: string,
    timestamp: number,
    sink: PipelineSink,
  ): boolean {
    let rawValue: unknown = rawIn ?? null;
    let value: unknown = valueIn ?? null;
    let defaulted = false;
    // 1. Default: a missing raw value first, so that the value map sees the substitute.
    if (rawValue === null && plan.defaultRawValue !== undefined) {
      rawValue = plan.defaultRawValue;
      defaulted = true;
    }
    // 2. Value map, only when the driver sent no value of its own; a miss keeps the raw value.
    if (value === null && rawValue !== null) {
      if (plan.valueMap !== undefined) {
        const mapped = plan.valueMap(rawValue);
        value = mapped === NO_MATCH ? rawValue : mapped;
      } else {
        value = rawValue;
      }
    }
    if (value === null && plan.defaultValue !== undefined) {
      value = plan.defaultValue;
      defaulted = true;
    }
    const working = this.#working;
    working.value = value;
    working.rawValue = rawValue;
    working.quality = quality;
    working.timestamp = timestamp;
    const context = this.#context;
    context.datapoints = row.record;
    // 3. Conversion expression.
    const conversion = plan.conversion;
    if (conversion !== undefined) {
      context.datapoint = working;
      try {
        value = conversion.evaluate(context) ?? null;
      } catch (error) {
        sink.event(makeErrorEvent(set, plan, row, 'conversion', failureOf(error), timestamp, conversion.source));
        return false;
      }
      if (typeof value === 'number' && !Number.isFinite(value)) {
        sink.event(
          makeErrorEvent(set, plan, row, 'conversion', notFinite(value, working), timestamp, conversion.source),
        );
        return false;
      }
    }
    // 4. Units: numbers only; null passes through.
    let unit: string | undefined;
    const units = plan.units;
    if (units !== undefined) {
      if (units.converts && typeof value === 'number') {
        units.apply(value, this.#units);
        value = this.#units.value;
        unit = units.showUnit ? this.#units.unit : undefined;
      } else if (units.converts && value !== null) {
        sink.event(makeErrorEvent(set, plan, row, 'units', notNumber(value), timestamp));
        return false;
      } else if (units.showUnit && value !== null) {
        units.apply(0, this.#units);
        unit = this.#units.unit;
      }
    }
    const entry = itemAt(row.entries, plan.index);
    entry.value = value;
    entry.rawValue = rawValue;
    entry.quality = quality;
    entry.timestamp = timestamp;
    entry.unit = unit;
    entry.defaulted = defaulted;
    entry.seen = true;
    return true;
  }

  /**
   * Stage 5 for one calculated datapoint: evaluates its calcConfig once every datapoint it reads
   * has a value, then runs stages 1–4 on the result (a value without raw value).
   * Returns whether the datapoint got a new value (false when it waits for inputs or failed).
   */
  calculate(set: SetPlan, row: RowState, plan: DatapointPlan, timestamp: number, sink: PipelineSink): boolean {
    const calc = plan.calc;
    if (calc === undefined) return false; // nothing to calculate: the plan lists only calculated datapoints here
    for (const input of calc.inputs) if (!itemAt(row.entries, input).seen) return false;
    const context = this.#context;
    const entry = itemAt(row.entries, plan.index);
    context.datapoint = entry;
    context.datapoints = row.record;
    let result: unknown;
    try {
      result = calc.evaluate(context);
    } catch (error) {
      sink.event(makeErrorEvent(set, plan, row, 'calculation', failureOf(error), timestamp, calc.source));
      return false;
    }
    if (typeof result === 'number' && !Number.isFinite(result)) {
      sink.event(makeErrorEvent(set, plan, row, 'calculation', notFinite(result, undefined), timestamp, calc.source));
      return false;
    }
    return this.process(set, row, plan, null, result, 'good', timestamp, sink);
  }

  /** Evaluates a row filter against the row (its datapoint as `datapoint`); throws what the expressions throw. */
  rowFilterPasses(row: RowState, plan: DatapointPlan): boolean {
    const context = this.#context;
    const filter = plan.rowFilter;
    if (filter === undefined) return true; // no filter: the row shows (the plan lists only filtered datapoints here)
    context.datapoint = itemAt(row.entries, plan.index);
    context.datapoints = row.record;
    return this.#holds(filter);
  }

  /**
   * Stage 6 for one datapoint whose value changed: each evaluation against the committed value
   * (and the row's other datapoints, calculations included), then its edge-triggered transition.
   */
  runAlerts(set: SetPlan, row: RowState, plan: DatapointPlan, sink: PipelineSink): void {
    const entry = itemAt(row.entries, plan.index);
    const context = this.#context;
    context.datapoints = row.record;
    for (const alert of plan.alerts) {
      context.datapoint = entry;
      let active: boolean;
      try {
        active = this.#holds(alert);
      } catch (error) {
        // The alarm keeps its state: a value the expression cannot handle neither raises nor clears.
        sink.event(
          makeErrorEvent(
            set,
            plan,
            row,
            'alert',
            failureOf(error),
            entry.timestamp,
            this.#failedSource,
            alert.severity,
          ),
        );
        continue;
      }
      transition(set, row, plan, alert, entry, active, sink);
    }
  }

  #failedSource: string | undefined;

  // Runs the expressions, then the logic. Remembers which source failed for the error event.
  #holds(condition: ConditionPlan): boolean {
    const expressions = condition.expressions;
    const context = this.#context;
    if (condition.logic === undefined) {
      const only = itemAt(expressions, 0);
      this.#failedSource = only.source;
      return only.evaluate(context) as boolean;
    }
    const symbols = context.symbols;
    for (const expression of expressions) {
      this.#failedSource = expression.source;
      symbols[expression.symbol] = expression.evaluate(context) as boolean;
    }
    this.#failedSource = condition.logic.source;
    return condition.logic.evaluate(context) as boolean;
  }

  /** The source of the expression that failed last (for row-filter error events). */
  get failedSource(): string | undefined {
    return this.#failedSource;
  }
}

/** Edge-triggered alert state machine (docs/pipeline.md, "Alerts"). */
function transition(
  set: SetPlan,
  row: RowState,
  plan: DatapointPlan,
  alert: AlertPlan,
  entry: EntryState,
  active: boolean,
  sink: PipelineSink,
): void {
  const slot = alert.slot;
  const state = row.alerts[slot] ?? ALERT.NEVER;
  if (active) {
    if (state === ALERT.RAISED || state === ALERT.SILENT) return;
    if (state === ALERT.NEVER && !alert.onStartup) {
      row.alerts[slot] = ALERT.SILENT;
      return;
    }
    row.alerts[slot] = ALERT.RAISED;
    sink.event(
      makeAlertEvent(alert.isLog ? 'log' : 'alarm-raised', set, plan, alert, row, entry.timestamp, entry.value),
    );
    return;
  }
  if (state === ALERT.RAISED && !alert.isLog)
    sink.event(makeAlertEvent('alarm-cleared', set, plan, alert, row, entry.timestamp, entry.value));
  row.alerts[slot] = ALERT.FALSE;
}

function notFinite(result: number, input: Working | undefined): Failure {
  const from = input === undefined ? '' : ` from value ${shortly(input.value)} and rawValue ${shortly(input.rawValue)}`;
  return {
    code: 'DT_ERR_PIPE_RESULT_NOT_FINITE',
    message: `the expression yielded ${String(result)}${from}; JSON cannot carry it, so the value is not updated`,
  };
}

function shortly(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function notNumber(value: unknown): Failure {
  const shown =
    typeof value === 'string'
      ? `'${value.length > 40 ? value.slice(0, 40) + '…' : value}'`
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
            ? String(value)
            : typeof value;
  return {
    code: 'DT_ERR_PIPE_UNITS_NOT_NUMBER',
    message:
      `${pipelineProblems.DT_ERR_PIPE_UNITS_NOT_NUMBER}: got ` +
      `${typeof value === 'object' ? '' : `${typeof value} `}${shown}; convert it first (convConfig: ` +
      `Number(datapoint.value))`,
  };
}
