import type { SchemaRequest } from '@triad/service-kit';
import { presentTemplateSummary } from '../../presenters/template-presenter.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';
import type { listTemplatesSchema } from './schemas.js';

/** `GET /templates`: filtered, paged listing. */
export function listTemplatesHandler(repository: TemplateRepository) {
  return async (request: SchemaRequest<typeof listTemplatesSchema>) => {
    const { prefix, q, originType, latest, limit, offset } = request.query;
    const page = await repository.list({
      ...(prefix !== undefined ? { prefix } : {}),
      ...(q !== undefined ? { text: q } : {}),
      ...(originType !== undefined ? { originType } : {}),
      latestOnly: latest,
      limit,
      offset,
    });
    return { items: page.items.map(presentTemplateSummary), total: page.total, limit, offset };
  };
}
