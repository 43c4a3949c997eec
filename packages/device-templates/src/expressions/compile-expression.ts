import type { Expression, Node } from 'acorn';
import { compileLogic } from './compile-logic.js';
import { compileNode } from './compile-node.js';
import { report, type Compiled, type CompilerState, type Evaluator } from './compiler-state.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';
import type { CompileOptions, CompileResult, ExpressionReferences } from './expression-types.js';
import { finish, NO_REFERENCES } from './finish-compile.js';
import { parseExpression, unwrap } from './parse-expression.js';
import { describeStaticType, T } from './static-type.js';
import { describeType } from './value-semantics.js';

/**
 * Checks an expression of a template and compiles it into a tree of closures.
 *
 * - `value` (`calcConfig`, `convConfig`) and `boolean` (alert expressions, row filters) accept the
 *   JavaScript subset of docs/expressions.md; `boolean` must be able to yield a boolean, and a
 *   non-boolean result at run time is `DT_ERR_EVAL_NOT_BOOLEAN`.
 * - `logic` accepts only `options.symbols`, `!`, `&&`, `||`, `&`, `|`, parentheses, `true`,
 *   `false`; declared symbols it does not use are warnings.
 *
 * Never throws: syntax errors, constructs outside the language, unknown names and datapoints,
 * regexes RE2 cannot run... are issues with offsets inside `source`. `ok` is false when any
 * issue is an error; warnings are returned either way. No `eval`, `Function` or `vm` is involved:
 * acorn parses, and the closures implement each operator.
 */
export function compileExpression(source: string, options: CompileOptions): CompileResult {
  // Templates repeat the same expressions; results are immutable, so they are shared. A result
  // that depends on options.datapointIds is not cached: one that names `datapoints`, spelled
  // plainly or with \u escapes (acorn accepts `datapo\u0069nts`).
  const dependsOnIds = source.includes('datapoints') || source.includes('\\u');
  const key =
    options.kind === 'logic'
      ? `logic\0${(options.symbols ?? []).join('\0')}\0${source}`
      : dependsOnIds
        ? undefined
        : `${options.kind}\0${source}`;
  if (key === undefined) return compile(source, options);
  let result = cache.get(key);
  if (result === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    result = compile(source, options);
    cache.set(key, result);
  }
  return result;
}

const cache = new Map<string, CompileResult>();
const MAX_CACHED = 2048;

function compile(source: string, options: CompileOptions): CompileResult {
  if (options.kind === 'logic') return compileLogic(source, options.symbols ?? []);
  const parsed = parseExpression(source);
  if (!parsed.ok) return finish(source, options.kind, () => undefined, NO_REFERENCES, [parsed.issue]);
  const state: CompilerState = {
    source,
    datapointIds: options.datapointIds,
    issues: [],
    referencedDatapoints: [],
    usesRawValue: false,
    compile(node: Node): Compiled {
      return compileNode(state, node);
    },
  };
  const root = state.compile(parsed.node);
  let run = root.run;
  if (options.kind === 'boolean') run = checkBoolean(state, parsed.node, root);
  const references: ExpressionReferences = {
    datapoints: state.referencedDatapoints,
    symbols: [],
    usesRawValue: state.usesRawValue,
  };
  return finish(source, options.kind, run, references, state.issues);
}

function checkBoolean(state: CompilerState, node: Expression, root: Compiled): Evaluator {
  const whole = { start: node.start, end: node.end };
  if ((root.type & T.BOOLEAN) === 0) {
    report(
      state,
      'DT_ERR_EXPR_NOT_BOOLEAN',
      `this expression yields a ${describeStaticType(root.type)}, never true or false; compare it (datapoint.value ` +
        `> 30) or test it (/^ok$/.test(datapoint.value))`,
      whole,
    );
  } else if (root.constant !== undefined) {
    report(
      state,
      'DT_WARN_EXPR_CONSTANT_RESULT',
      `this expression is always ${String(root.constant.value)}, whatever the datapoint holds`,
      whole,
    );
  } else if (root.type !== T.BOOLEAN && ['LogicalExpression', 'ConditionalExpression'].includes(unwrap(node).type)) {
    report(
      state,
      'DT_WARN_EXPR_MAYBE_NOT_BOOLEAN',
      `this expression can yield a ${describeStaticType(root.type & ~T.BOOLEAN)} instead of true or false, which ` +
        `fails the evaluation; ` +
        'compare explicitly (datapoint.value !== null && ...) or wrap it in Boolean(...)',
      whole,
    );
  }
  if (root.type === T.BOOLEAN) return root.run;
  const run = root.run;
  return (context) => {
    const result = run(context);
    if (typeof result !== 'boolean') throw notBoolean(result);
    return result;
  };
}

function notBoolean(result: unknown): ExpressionEvaluationError {
  return new ExpressionEvaluationError(
    'DT_ERR_EVAL_NOT_BOOLEAN',
    `the expression must yield true or false, but yielded a ${describeType(result)}`,
  );
}
