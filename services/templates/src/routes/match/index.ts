import { findMatchingTemplates } from '../../matching/find-matching-templates.js';
import type { PatternCache } from '../../matching/pattern-cache.js';
import { presentTemplateSummary } from '../../presenters/template-presenter.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';
import { matchSchema } from './schemas.js';
import type { SchemaTypedApp } from '@triad/service-kit';

export interface MatchRoutesOptions {
  readonly repository: TemplateRepository;
  readonly patterns: PatternCache;
}

/** `POST /match`: templates for a discovered device. */
export function matchRoutes(app: SchemaTypedApp, options: MatchRoutesOptions, done: (error?: Error) => void): void {
  // Fastify parses text/plain by default; the body would then fail the object schema with a 400,
  // where the route's contract (JSON only) is 415. Only JSON stays in this plugin's context.
  if (app.hasContentTypeParser('text/plain')) app.removeContentTypeParser('text/plain');
  app.post('/match', { schema: matchSchema }, async (request) => {
    const { deviceID, vendorID, description } = request.body;
    const matches = await findMatchingTemplates(options.repository, options.patterns, {
      ...(deviceID !== undefined ? { deviceID } : {}),
      ...(vendorID !== undefined ? { vendorID } : {}),
      ...(description !== undefined ? { description } : {}),
    });
    return { items: matches.map(presentTemplateSummary) };
  });
  done();
}
