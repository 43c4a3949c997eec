import {
  createPipelineEvaluator,
  fromJsonPointer,
  loadDocument,
  type PipelineInput,
  TemplateEvaluatorError,
} from '@triad/device-templates';
import { templatesProblems } from '../../errors.js';
import type { ProblemEntry } from '../../presenters/problem-presenter.js';
import type { TemplateRecord } from '../../model/template-record.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';
import { PipelineCache } from './pipeline-cache.js';
import { evaluateSchema } from './schemas.js';
import type { SchemaTypedApp } from '@triad/service-kit';
import { templateDocument } from '../../model/template-document.js';

export interface EvaluateRoutesOptions {
  readonly repository: TemplateRepository;
  /** Largest body, bytes (10,000 updates need more than the default 1 MiB). */
  readonly bodyLimit: number;
  /** Clock for updates without a timestamp (epoch ms); default `Date.now`. Read once per request. */
  readonly now?: () => number;
}

/**
 * `POST /templates/:templateId/:templateVersion/evaluate` (register with `prefix: '/templates'`):
 * runs the body's updates through a fresh evaluator of the stored template and answers its
 * values and events. The compiled pipeline is cached per source hash; the state is not.
 */
export function evaluateRoutes(
  app: SchemaTypedApp,
  options: EvaluateRoutesOptions,
  done: (error?: Error) => void,
): void {
  const cache = new PipelineCache();
  const now = options.now ?? Date.now;
  app.post(
    '/:templateId/:templateVersion/evaluate',
    { schema: evaluateSchema, bodyLimit: options.bodyLimit },
    async (request) => {
      const { templateId, templateVersion } = request.params;
      const record = await options.repository.find(templateId, templateVersion);
      if (!record) {
        throw templatesProblems.create('TPL_ERR_TEMPLATE_NOT_FOUND', `No template ${templateId} ${templateVersion}`, {
          templateId,
          templateVersion,
        });
      }
      let pipeline;
      try {
        pipeline = cache.get(record.sourceSha256, () => templateDocument(record));
      } catch (error) {
        if (!(error instanceof TemplateEvaluatorError)) throw error;
        throw templatesProblems.create(
          'TPL_ERR_TEMPLATE_INVALID',
          `${templateId} ${templateVersion} cannot be evaluated: ${error.issues.length} issue(s)`,
          {
            errors: presentIssues(record, error),
          },
        );
      }
      // One clock reading per request: updates without a timestamp share the time of the request.
      const at = now();
      const evaluator = createPipelineEvaluator(pipeline, {
        now: () => at,
        ...(request.body.origin !== undefined ? { origin: request.body.origin } : {}),
      });
      // The schema admits every shape of input (one object schema for the three kinds); the
      // evaluator checks each one and answers an unusable one with an update-rejected event.
      return evaluator.updateBatch(request.body.updates as readonly PipelineInput[]);
    },
  );
  done();
}

// Issues with line and column in the stored source (inside the expression for expression issues).
function presentIssues(record: TemplateRecord, error: TemplateEvaluatorError): ProblemEntry[] {
  let positionOf: (pointer: string, offset?: number) => { line: number; column: number } = () => ({
    line: 0,
    column: 0,
  });
  try {
    const document = loadDocument(record.sourceText, { format: record.sourceFormat });
    positionOf = (pointer, offset) => {
      const path = fromJsonPointer(pointer);
      return (
        (offset !== undefined ? document.positionInString?.(path, offset) : undefined) ?? document.positionOf(path)
      );
    };
  } catch {
    // The stored source always loads; without it positions stay 0.
  }
  return error.issues.map((issue) => {
    const { line, column } = positionOf(issue.path, issue.offset);
    return { code: issue.code, severity: 'error', path: issue.path, line, column, message: issue.message };
  });
}
