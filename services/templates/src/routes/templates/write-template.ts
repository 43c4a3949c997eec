import type { FastifyReply } from 'fastify';
import type { OidNameResolver } from '@triad/device-templates';
import type { SchemaRequest } from '@triad/service-kit';
import { saveTemplate, type SaveTemplateOutcome } from '../../commands/save-template.js';
import { readTemplateSource } from '../../http/source-body-parsers.js';
import { templatesProblems } from '../../errors.js';
import { presentProblems } from '../../presenters/problem-presenter.js';
import { presentTemplateSummary, templatePath } from '../../presenters/template-presenter.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';
import type { createTemplateSchema, putTemplateSchema } from './schemas.js';

/** `POST /templates`: store a new version (409 when it exists). */
export function createTemplateHandler(repository: TemplateRepository, oidNames?: OidNameResolver) {
  return async (request: SchemaRequest<typeof createTemplateSchema>, reply: FastifyReply) => {
    const source = readTemplateSource(request);
    const outcome = await saveTemplate(repository, {
      ...source,
      mode: 'create',
      strict: request.query.strict,
      ...(oidNames ? { oidNames } : {}),
    });
    return sendOutcome(reply, outcome);
  };
}

/** `PUT /templates/:templateId/:templateVersion`: create or replace that version. */
export function putTemplateHandler(repository: TemplateRepository, oidNames?: OidNameResolver) {
  return async (request: SchemaRequest<typeof putTemplateSchema>, reply: FastifyReply) => {
    const source = readTemplateSource(request);
    const outcome = await saveTemplate(repository, {
      ...source,
      mode: 'upsert',
      strict: request.query.strict,
      ...(oidNames ? { oidNames } : {}),
      expected: { templateId: request.params.templateId, templateVersion: request.params.templateVersion },
    });
    return sendOutcome(reply, outcome);
  };
}

function sendOutcome(reply: FastifyReply, outcome: SaveTemplateOutcome) {
  if (outcome.kind === 'invalid') {
    throw templatesProblems.create(
      'TPL_ERR_TEMPLATE_INVALID',
      `The template has ${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'}; nothing was stored`,
      { errors: presentProblems(outcome.errors), warnings: presentProblems(outcome.warnings) },
    );
  }
  const template = presentTemplateSummary(outcome.summary);
  if (outcome.created) reply.header('location', templatePath(template.templateId, template.templateVersion));
  return reply
    .status(outcome.created ? 201 : 200)
    .send({ created: outcome.created, template, warnings: presentProblems(outcome.warnings) });
}
