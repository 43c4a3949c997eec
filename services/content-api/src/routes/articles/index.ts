import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contentProblems } from '../../errors.js';
import { applyRequestedVersion, type ContentVersions } from '../../http/content-version.js';
import { CONTENT_MEDIA_TYPE } from '../../http/media-types.js';
import { rawQuery } from '../../http/raw-query.js';
import { presentArticleDetail } from '../../presenters/article-presenter.js';
import { articlePath, LinkBuilder, linkScope } from '../../presenters/links.js';
import { presentSearchResult } from '../../presenters/search-presenter.js';
import { scopeToCurrency } from '../../search/currency-scope.js';
import { parseSearchQuery, single } from '../../search/parse-search-query.js';
import type { SearchBackend } from '../../search/search-backend.js';
import { readArticleSchema, searchArticlesSchema } from './schemas.js';

export interface ArticlesRoutesOptions {
  readonly backend: SearchBackend;
  readonly versions: ContentVersions;
  readonly baseUrl: (request: FastifyRequest) => string;
}

/** `GET /api/articles` (search) and `GET /api/articles/{articleId}` (detail). Register with prefix `/api/articles`. */
export function articlesRoutes(
  app: FastifyInstance,
  options: ArticlesRoutesOptions,
  done: (error?: Error) => void,
): void {
  const { versions } = options;

  app.get('', { schema: searchArticlesSchema }, async (request, reply) => {
    const search = parseSearchQuery(rawQuery(request.query));
    const { snapshot, backend } = await versions.resolve(search.hash, search.query.shopIds);
    applyRequestedVersion(reply, search.hash, snapshot.versionOf(search.query.shopIds));
    const page = await backend.search(scopeToCurrency(search.query, search.currency, snapshot.shops));
    const links = new LinkBuilder(options.baseUrl(request), snapshot);
    const body = presentSearchResult(search, page, snapshot.shops, links, Math.round(reply.elapsedTime));
    return reply.type(CONTENT_MEDIA_TYPE).send(JSON.stringify(body));
  });

  app.get<{ Params: { articleId: string } }>('/:articleId', { schema: readArticleSchema }, async (request, reply) => {
    const hash = single(rawQuery(request.query), 'hash');
    const scope = linkScope(articlePath(request.params.articleId));
    const { snapshot, backend } = await versions.resolve(hash, scope);
    applyRequestedVersion(reply, hash, snapshot.versionOf(scope));
    const article = await backend.findArticle(request.params.articleId);
    if (!article)
      throw contentProblems.create(
        'CONTENT_ERR_ARTICLE_NOT_FOUND',
        `No article has the id ${request.params.articleId}`,
      );
    const links = new LinkBuilder(options.baseUrl(request), snapshot);
    return reply
      .type(CONTENT_MEDIA_TYPE)
      .send(JSON.stringify(presentArticleDetail(article, links, Math.round(reply.elapsedTime))));
  });
  done();
}
