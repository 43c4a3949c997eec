/** The value pipeline of device templates: see docs/pipeline.md. */
export { createTemplateEvaluator, createPipelineEvaluator } from './template-evaluator.js';
export { compileTemplatePipeline, type TemplatePipeline, type SetPlan } from './compile-pipeline.js';
export { TemplateEvaluatorError, type PipelineBuildIssue } from './template-evaluator-error.js';
export { pipelineProblems, type PipelineProblemCode } from './pipeline-problems.js';
export { severityLevel } from './severity-level.js';
export type {
  AlertEvent,
  DatapointResult,
  DatapointUpdate,
  EvaluationErrorEvent,
  EvaluatorOptions,
  EventPlace,
  PipelineEvent,
  PipelineInput,
  PipelineOutput,
  PipelineSink,
  PipelineStage,
  RowRemoval,
  RowSnapshot,
  SetSnapshot,
  SeverityLevel,
  TableCell,
  TableIndex,
  TableUpdate,
  TemplateEvaluator,
  UpdateRejectedEvent,
} from './pipeline-types.js';
export { readUpdateStream, type StreamItem, type StreamError } from './update-stream.js';
export { formatValueLine, formatEventLine } from './format-output.js';
