import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ContentVersions } from '../../http/content-version.js';
import { CONTENT_MEDIA_TYPE } from '../../http/media-types.js';
import { LinkBuilder } from '../../presenters/links.js';
import { entrySchema } from './schemas.js';

export interface EntryRoutesOptions {
  readonly versions: ContentVersions;
  readonly baseUrl: (request: FastifyRequest) => string;
}

/**
 * `GET /api`: the entry point. Links `self`, `articles`, `article-by-id` (a URI template,
 * `{articleId}` left unescaped) and the shop list under both names the spec uses (`bshops`,
 * `business-shops`).
 */
export function entryRoutes(app: FastifyInstance, options: EntryRoutesOptions, done: (error?: Error) => void): void {
  app.get('/api', { schema: entrySchema }, async (request, reply) => {
    const snapshot = await options.versions.current();
    const links = new LinkBuilder(options.baseUrl(request), snapshot);
    const byId = links.link('article-by-id', '/api/articles/ARTICLE_ID');
    const body = {
      _status: { timeMs: Math.round(reply.elapsedTime) },
      _schema: {
        links: [
          links.link('self', '/api'),
          ...links.links(['bshops', 'business-shops'], '/api/business-shops'),
          links.link('articles', '/api/articles'),
          { ...byId, href: byId.href.replace('ARTICLE_ID', '{articleId}') },
        ],
      },
    };
    return reply.type(CONTENT_MEDIA_TYPE).send(JSON.stringify(body));
  });
  done();
}
