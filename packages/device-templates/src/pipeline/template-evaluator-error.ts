import type { PipelineProblemCode } from './pipeline-problems.js';

/** One reason a template cannot be turned into a pipeline. */
export interface PipelineBuildIssue {
  /** `DT_ERR_PIPE_BUILD_*`. */
  readonly code: PipelineProblemCode;
  /** JSON Pointer of the offending value, e.g. `/datapointSets/0/datapoints/2/convConfig/expression`. */
  readonly path: string;
  readonly message: string;
  /** For expression issues: the expression module's code (`DT_ERR_EXPR_*`) and where in the expression. */
  readonly expressionCode?: string;
  readonly offset?: number;
  readonly length?: number;
}

/**
 * Thrown by `compileTemplatePipeline` / `createTemplateEvaluator` when the template cannot be
 * evaluated: expressions that do not compile, unknown units, calculation cycles... Lists every
 * issue found, not only the first. The validator reports all of these earlier (as errors or
 * warnings), so a template that validates without warnings never throws this.
 */
export class TemplateEvaluatorError extends Error {
  override readonly name = 'TemplateEvaluatorError';
  readonly code = 'DT_ERR_PIPE_BUILD';
  readonly issues: readonly PipelineBuildIssue[];

  constructor(issues: readonly PipelineBuildIssue[]) {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(
      first
        ? `The template cannot be evaluated: ${first.message} at ${first.path || '/'}${more}`
        : 'The template cannot be evaluated',
    );
    this.issues = Object.freeze([...issues]);
  }
}
