import { validateSource, type OidNameResolver, type Problem, type SourceFormat } from '@triad/device-templates';
import { templatesProblems } from '../errors.js';
import { extractTemplateFacts } from '../model/template-facts.js';
import { TemplateExistsError, type TemplateRepository } from '../repositories/template-repository.js';
import type { TemplateSummaryRecord } from '../model/template-record.js';

export interface SaveTemplateInput {
  /** The body as sent: JSON or YAML text. */
  readonly text: string;
  readonly format: SourceFormat;
  /** `create` refuses an existing version; `upsert` replaces it. */
  readonly mode: 'create' | 'upsert';
  /** From the URL of a PUT: the document must name the same template. */
  readonly expected?: { readonly templateId: string; readonly templateVersion: string };
  /** Warnings count as errors. */
  readonly strict?: boolean;
  /** Resolves MIB names in SNMP addresses; without it only their form is checked. */
  readonly oidNames?: OidNameResolver;
}

export type SaveTemplateOutcome =
  | { readonly kind: 'invalid'; readonly errors: readonly Problem[]; readonly warnings: readonly Problem[] }
  | {
      readonly kind: 'saved';
      readonly created: boolean;
      readonly summary: TemplateSummaryRecord;
      readonly warnings: readonly Problem[];
    };

/**
 * Validates a template source and stores it when valid. An invalid document stores nothing and
 * comes back with every error. The templateId and templateVersion come from the document.
 *
 * @throws ProblemError `TPL_ERR_IDENTITY_MISMATCH` when `expected` differs from the document,
 *   `TPL_ERR_TEMPLATE_EXISTS` in `create` mode for a stored version.
 */
export async function saveTemplate(
  repository: TemplateRepository,
  input: SaveTemplateInput,
): Promise<SaveTemplateOutcome> {
  const result = validateSource(input.text, {
    format: input.format,
    file: '<request body>',
    strict: input.strict === true,
    ...(input.oidNames ? { oidNames: input.oidNames } : {}),
  });
  if (!result.valid || !result.document) {
    return { kind: 'invalid', errors: result.errors, warnings: result.warnings };
  }
  const document = result.document;
  const facts = extractTemplateFacts(document.value);
  if ('missing' in facts) {
    // Only reachable if the validator let such a document through; the registry cannot index it.
    const errors = facts.missing.map((m): Problem => {
      const at = document.positionOf(m.path.slice(1) ? [m.path.slice(1)] : []);
      return {
        code: 'TPL_ERR_TEMPLATE_INVALID',
        severity: 'error',
        path: m.path,
        line: at.line,
        column: at.column,
        message: m.message,
      };
    });
    return { kind: 'invalid', errors, warnings: result.warnings };
  }
  if (
    input.expected &&
    (input.expected.templateId !== facts.templateId || input.expected.templateVersion !== facts.templateVersion)
  ) {
    throw templatesProblems.create(
      'TPL_ERR_IDENTITY_MISMATCH',
      `The URL names ${input.expected.templateId} ${input.expected.templateVersion} ` +
        `but the document is ${facts.templateId} ${facts.templateVersion}`,
      {
        expected: { ...input.expected },
        found: { templateId: facts.templateId, templateVersion: facts.templateVersion },
      },
    );
  }
  try {
    const saved = await repository.save(
      {
        ...facts,
        sourceFormat: document.format,
        sourceText: input.text,
        documentJson: JSON.stringify(document.value),
      },
      input.mode,
    );
    return { kind: 'saved', created: saved.created, summary: saved.summary, warnings: result.warnings };
  } catch (error) {
    if (error instanceof TemplateExistsError) {
      throw templatesProblems.create(
        'TPL_ERR_TEMPLATE_EXISTS',
        `${facts.templateId} ${facts.templateVersion} is already stored; PUT it to its URL to replace it`,
        { templateId: facts.templateId, templateVersion: facts.templateVersion },
        { cause: error },
      );
    }
    throw error;
  }
}
