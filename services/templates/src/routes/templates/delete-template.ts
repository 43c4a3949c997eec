import type { FastifyReply } from 'fastify';
import type { SchemaRequest } from '@triad/service-kit';
import { deleteAllTemplateVersions, deleteTemplateVersion } from '../../commands/delete-templates.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';
import type { deleteAllVersionsSchema, deleteTemplateSchema } from './schemas.js';

/** `DELETE /templates/:templateId/:templateVersion`. */
export function deleteTemplateHandler(repository: TemplateRepository) {
  return async (request: SchemaRequest<typeof deleteTemplateSchema>, reply: FastifyReply) => {
    await deleteTemplateVersion(repository, request.params.templateId, request.params.templateVersion);
    return reply.status(204).send();
  };
}

/** `DELETE /templates/:templateId`: every version. */
export function deleteAllVersionsHandler(repository: TemplateRepository) {
  return async (request: SchemaRequest<typeof deleteAllVersionsSchema>, reply: FastifyReply) => {
    await deleteAllTemplateVersions(repository, request.params.templateId);
    return reply.status(204).send();
  };
}
