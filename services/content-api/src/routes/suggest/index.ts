import type { FastifyInstance } from 'fastify';
import { contentProblems, invalidQueryParam } from '../../errors.js';
import { applyRequestedVersion, type ContentVersions } from '../../http/content-version.js';
import { CONTENT_MEDIA_TYPE } from '../../http/media-types.js';
import { rawQuery } from '../../http/raw-query.js';
import { boundedInteger, many, single, type RawQuery } from '../../search/parse-search-query.js';
import {
  EMPTY_SUGGESTIONS,
  MAX_SUGGEST_Q_LENGTH,
  SUGGEST_LIMIT,
  type SuggestQuery,
} from '../../search/suggest-words.js';
import { suggestSchema } from './schemas.js';

export interface SuggestRoutesOptions {
  readonly versions: ContentVersions;
}

/**
 * Validates the query of `GET /api/suggest`: `businessShopId` repeatable, never empty (absent:
 * every shop), `q` at most
 * `MAX_SUGGEST_Q_LENGTH` characters (absent: nothing to suggest), `limit` 0..20 default 8.
 *
 * @throws ProblemError 400 invalid-query-param naming the first invalid parameter.
 */
export function parseSuggestQuery(raw: RawQuery): SuggestQuery & { readonly hash?: string } {
  const shopIds = many(raw, 'businessShopId');
  const q = single(raw, 'q') ?? '';
  if (q.length > MAX_SUGGEST_Q_LENGTH)
    throw invalidQueryParam('q', [
      {
        path: '#/q',
        code: 'MAXIMUM',
        limit: MAX_SUGGEST_Q_LENGTH,
        description: `longer than ${MAX_SUGGEST_Q_LENGTH} characters; send the text of the search box only`,
      },
    ]);
  const limit = boundedInteger(raw, 'limit', SUGGEST_LIMIT);
  const hash = single(raw, 'hash');
  return { shopIds, q, limit, ...(hash !== undefined ? { hash } : {}) };
}

/** `GET /api/suggest`: completions and corrections of the last word of `q` in the shops' words (issue 27). */
export function suggestRoutes(
  app: FastifyInstance,
  options: SuggestRoutesOptions,
  done: (error?: Error) => void,
): void {
  const { versions } = options;
  app.get('/api/suggest', { schema: suggestSchema }, async (request, reply) => {
    const { hash, ...query } = parseSuggestQuery(rawQuery(request.query));
    const { snapshot, backend } = await versions.resolve(hash, query.shopIds);
    applyRequestedVersion(reply, hash, snapshot.versionOf(query.shopIds));
    const unknown = query.shopIds.find((id) => !snapshot.shops.has(id));
    if (unknown !== undefined)
      throw contentProblems.create('CONTENT_ERR_SHOP_NOT_FOUND', `No business shop has the id ${unknown}`);
    const page = query.limit === 0 ? EMPTY_SUGGESTIONS : await backend.suggest(query);
    const body = { ...page, _status: { timeMs: Math.round(reply.elapsedTime) } };
    return reply.type(CONTENT_MEDIA_TYPE).send(JSON.stringify(body));
  });
  done();
}
