import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentProblems } from '../../errors.js';
import { applyRequestedVersion, type ContentVersions } from '../../http/content-version.js';
import { CONTENT_MEDIA_TYPE } from '../../http/media-types.js';
import { rawQuery } from '../../http/raw-query.js';
import type { BusinessShop } from '../../model/article.js';
import { LinkBuilder } from '../../presenters/links.js';
import { pagingLinks } from '../../presenters/search-presenter.js';
import {
  presentMinimumOrderValue,
  presentReturnPolicy,
  presentShippingCosts,
  presentShop,
} from '../../presenters/shop-presenter.js';
import { boundedInteger, single } from '../../search/parse-search-query.js';
import type { SearchBackend } from '../../search/search-backend.js';
import {
  listShopsAliasSchema,
  listShopsSchema,
  minimumOrderValueSchema,
  readShopSchema,
  returnPolicySchema,
  SHOP_LIMIT,
  SHOP_OFFSET,
  shippingCostsSchema,
} from './schemas.js';

export interface BusinessShopsRoutesOptions {
  readonly backend: SearchBackend;
  readonly versions: ContentVersions;
  readonly baseUrl: (request: FastifyRequest) => string;
}

type Present = (shop: BusinessShop, links: LinkBuilder, timeMs: number) => unknown;

/**
 * `GET /api/business-shops` (also at `/api/bshops`, the path the spec's entry example shows),
 * `GET /api/business-shops/{id}` and its `return-policy`, `shipping-costs` and
 * `minimum-order-value` resources. 404 problem for an unknown shop.
 */
export function businessShopsRoutes(
  app: FastifyInstance,
  options: BusinessShopsRoutesOptions,
  done: (error?: Error) => void,
): void {
  const { versions } = options;
  const list = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = rawQuery(request.query);
    const limit = boundedInteger(query, 'limit', SHOP_LIMIT);
    const offset = boundedInteger(query, 'offset', SHOP_OFFSET);
    const hash = single(query, 'hash');
    const { snapshot, backend } = await versions.resolve(hash, []);
    applyRequestedVersion(reply, hash, snapshot.hash);
    const { total, shops } = await backend.listShops(limit, offset);
    const links = new LinkBuilder(options.baseUrl(request), snapshot);
    const body = {
      total,
      offset,
      limit,
      members: shops.map((shop) => presentShop(shop, links)),
      _status: { timeMs: Math.round(reply.elapsedTime) },
      _schema: {
        links: pagingLinks(total, offset, limit, SHOP_OFFSET.maximum, (rel, at) =>
          links.link(rel, '/api/business-shops', { limit, offset: at }),
        ),
      },
    };
    return reply.type(CONTENT_MEDIA_TYPE).send(JSON.stringify(body));
  };
  app.get('/api/business-shops', { schema: listShopsSchema }, list);
  app.get('/api/bshops', { schema: listShopsAliasSchema }, list);

  const one =
    (present: Present) => async (request: FastifyRequest<{ Params: { shopId: string } }>, reply: FastifyReply) => {
      const hash = single(rawQuery(request.query), 'hash');
      const { snapshot } = await versions.resolve(hash, [request.params.shopId]);
      applyRequestedVersion(reply, hash, snapshot.versionOf([request.params.shopId]));
      const shop = snapshot.shops.get(request.params.shopId);
      if (!shop)
        throw contentProblems.create(
          'CONTENT_ERR_SHOP_NOT_FOUND',
          `No business shop has the id ${request.params.shopId}`,
        );
      const links = new LinkBuilder(options.baseUrl(request), snapshot);
      return reply.type(CONTENT_MEDIA_TYPE).send(JSON.stringify(present(shop, links, Math.round(reply.elapsedTime))));
    };
  app.get(
    '/api/business-shops/:shopId',
    { schema: readShopSchema },
    one((shop, links, timeMs) => ({ ...presentShop(shop, links), _status: { timeMs } })),
  );
  app.get('/api/business-shops/:shopId/return-policy', { schema: returnPolicySchema }, one(presentReturnPolicy));
  app.get('/api/business-shops/:shopId/shipping-costs', { schema: shippingCostsSchema }, one(presentShippingCosts));
  app.get(
    '/api/business-shops/:shopId/minimum-order-value',
    { schema: minimumOrderValueSchema },
    one(presentMinimumOrderValue),
  );
  done();
}
