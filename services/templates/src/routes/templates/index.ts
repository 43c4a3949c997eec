import type { OidNameResolver } from '@triad/device-templates';
import type { SchemaTypedApp } from '@triad/service-kit';
import { useTemplateSourceParsers } from '../../http/source-body-parsers.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';
import { deleteAllVersionsHandler, deleteTemplateHandler } from './delete-template.js';
import { listTemplatesHandler } from './list-templates.js';
import { listVersionsHandler, readTemplateHandler } from './read-template.js';
import {
  createTemplateSchema,
  deleteAllVersionsSchema,
  deleteTemplateSchema,
  listTemplatesSchema,
  listVersionsSchema,
  putTemplateSchema,
  readTemplateSchema,
} from './schemas.js';
import { createTemplateHandler, putTemplateHandler } from './write-template.js';

export interface TemplatesRoutesOptions {
  readonly repository: TemplateRepository;
  /** Body limit of template writes, in bytes. */
  readonly sourceBodyLimit: number;
  readonly maxJsonDepth: number;
  /** Resolves MIB names in SNMP addresses; without it only their form is checked. */
  readonly oidNames?: OidNameResolver;
}

/** The registry resource; register with `prefix: '/templates'`. */
export function templatesRoutes(
  app: SchemaTypedApp,
  options: TemplatesRoutesOptions,
  done: (error?: Error) => void,
): void {
  const { repository } = options;
  useTemplateSourceParsers(app, { maxJsonDepth: options.maxJsonDepth });
  app.get('', { schema: listTemplatesSchema }, listTemplatesHandler(repository));
  app.post(
    '',
    { schema: createTemplateSchema, bodyLimit: options.sourceBodyLimit },
    createTemplateHandler(repository, options.oidNames),
  );
  app.get('/:templateId', { schema: listVersionsSchema }, listVersionsHandler(repository));
  app.delete('/:templateId', { schema: deleteAllVersionsSchema }, deleteAllVersionsHandler(repository));
  app.get('/:templateId/:templateVersion', { schema: readTemplateSchema }, readTemplateHandler(repository));
  app.put(
    '/:templateId/:templateVersion',
    { schema: putTemplateSchema, bodyLimit: options.sourceBodyLimit },
    putTemplateHandler(repository, options.oidNames),
  );
  app.delete('/:templateId/:templateVersion', { schema: deleteTemplateSchema }, deleteTemplateHandler(repository));
  done();
}
