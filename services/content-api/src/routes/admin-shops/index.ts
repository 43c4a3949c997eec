import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isObject } from '@triad/common';
import { ProblemError } from '@triad/service-kit';
import { contentProblems, invalidQueryParam } from '../../errors.js';
import type { BusinessShop } from '../../model/article.js';
import { parseShopRecord } from '../../model/parse-shop-record.js';
import type { AccessPolicy } from '../../policies/access-policy.js';
import type { RecordViolation } from '../../model/parse-article-record.js';
import { presentShopRecord } from '../../presenters/shop-presenter.js';
import { presentImportRun } from '../../presenters/import-run-presenter.js';
import type { ImportRunRepository } from '../../repositories/import-run-repository.js';
import type { SearchBackend } from '../../search/search-backend.js';
import type { ShopWriteMode } from '../../search/shop-changes.js';
import { useSchemasAsDocumentation } from '../documentation-only-schemas.js';
import {
  createShopSchema,
  deleteShopSchema,
  listShopRecordsSchema,
  patchShopSchema,
  putShopSchema,
  readShopRecordSchema,
} from './schemas.js';
import { listImportRunsSchema } from './import-run-schemas.js';

export interface AdminShopsRoutesOptions {
  readonly backend: SearchBackend;
  /** Verifies the bearer token and requires the admin scope. */
  /** Decides who may use the admin API. */
  readonly access: Pick<AccessPolicy, 'require'>;
  /** Where catalog imports are recorded; without it no shop has recorded imports. */
  readonly importRuns?: Pick<ImportRunRepository, 'list'>;
}

/** Shops read by the list. */
const LIST_MAX = 10_000;

type ShopRequest = FastifyRequest<{ Params: { shopId: string } }>;

/**
 * The admin API of shops, under `/admin/business-shops`: list, read, create (POST), create or
 * replace (PUT), change (PATCH) and remove (DELETE) shop records. Every call needs a token with
 * the admin scope (401 without a valid token, 403 with a read token). `GET .../{shopId}/imports`
 * lists the shop's recorded catalog imports, newest first. Bodies are JSON, checked
 * whole by `parseShopRecord` (422 `CONTENT_ERR_SHOP_INVALID` listing every violation; nothing
 * changes). Every change makes a new content version, so readers see it at once.
 */
export function adminShopsRoutes(
  app: FastifyInstance,
  options: AdminShopsRoutesOptions,
  done: (error?: Error) => void,
): void {
  const { backend } = options;
  // parseShopRecord checks bodies whole, without the coercion Fastify's validation would apply.
  useSchemasAsDocumentation(app);
  app.addHook('onRequest', async (request, reply) => {
    try {
      await options.access.require(request.headers.authorization, 'admin');
    } catch (error) {
      if (error instanceof ProblemError && error.status === 401)
        reply.header('www-authenticate', 'Bearer realm="content-api", error="invalid_token"');
      throw error;
    }
  });

  app.get('/admin/business-shops', { schema: listShopRecordsSchema }, async () => {
    const { total, shops } = await backend.listShops(LIST_MAX, 0);
    return { total, members: shops.map(presentShopRecord) };
  });

  app.get('/admin/business-shops/:shopId', { schema: readShopRecordSchema }, async (request: ShopRequest) =>
    presentShopRecord(await storedShop(backend, request.params.shopId)),
  );

  app.get('/admin/business-shops/:shopId/imports', { schema: listImportRunsSchema }, async (request: ShopRequest) => {
    const { shopId } = request.params;
    const runs = (await options.importRuns?.list(shopId)) ?? [];
    // A removed shop's imports stay readable; an id never seen is not found.
    if (runs.length === 0) await storedShop(backend, shopId);
    return { total: runs.length, members: runs.map(presentImportRun) };
  });

  app.post('/admin/business-shops', { schema: createShopSchema }, async (request, reply) => {
    const body = request.body;
    const id = isObject(body) && typeof body.id === 'string' ? body.id : undefined;
    if (id === undefined) throw invalidShop([{ path: '/id', message: 'must be the new shop id, a string' }]);
    const shop = checked(id, body);
    await write(backend, shop, 'create');
    return sendCreated(reply, shop);
  });

  app.put('/admin/business-shops/:shopId', { schema: putShopSchema }, async (request: ShopRequest, reply) => {
    const shop = checked(request.params.shopId, request.body);
    if ((await write(backend, shop, 'upsert')) === 'created') return sendCreated(reply, shop);
    return presentShopRecord(shop);
  });

  app.patch('/admin/business-shops/:shopId', { schema: patchShopSchema }, async (request: ShopRequest) => {
    const stored = await storedShop(backend, request.params.shopId);
    const shop = checked(stored.id, request.body, stored);
    await write(backend, shop, 'update');
    return presentShopRecord(shop);
  });

  app.delete('/admin/business-shops/:shopId', { schema: deleteShopSchema }, async (request: ShopRequest, reply) => {
    const flag = isObject(request.query) ? request.query.withArticles : undefined;
    if (flag !== undefined && flag !== 'true' && flag !== 'false')
      throw invalidQueryParam('withArticles', [
        { path: '#/withArticles', code: 'TYPE', description: 'must be true or false' },
      ]);
    const { shopId } = request.params;
    const outcome = await backend.removeShop({ id: shopId, withArticles: flag === 'true', hash: newHash() });
    if (outcome.status === 'not-found') throw notFound(shopId);
    if (outcome.status === 'has-articles')
      throw contentProblems.create(
        'CONTENT_ERR_SHOP_HAS_ARTICLES',
        `Shop ${shopId} has ${outcome.articles} articles; repeat with withArticles=true to remove them too`,
        { articles: outcome.articles },
      );
    return reply.status(204).send();
  });
  done();
}

function newHash(): string {
  return randomBytes(8).toString('hex');
}

function notFound(shopId: string): ProblemError {
  return contentProblems.create('CONTENT_ERR_SHOP_NOT_FOUND', `No business shop has the id ${shopId}`);
}

function invalidShop(violations: readonly RecordViolation[]): ProblemError {
  return contentProblems.create(
    'CONTENT_ERR_SHOP_INVALID',
    `The shop record has ${violations.length} problem${violations.length === 1 ? '' : 's'}: ` +
      violations.map((v) => `${v.path || '(root)'} ${v.message}`).join('; '),
    { errors: violations.map((v) => ({ pointer: v.path, message: v.message })) },
  );
}

/** The checked record, or a 422 problem listing every violation. */
function checked(id: string, body: unknown, base?: BusinessShop): BusinessShop {
  const parsed = parseShopRecord(id, body, base);
  if (!parsed.ok) throw invalidShop(parsed.violations);
  return parsed.shop;
}

async function storedShop(backend: SearchBackend, shopId: string): Promise<BusinessShop> {
  const shop = await backend.findShop(shopId);
  if (!shop) throw notFound(shopId);
  return shop;
}

/** Stores `shop`; a create of a stored id is 409, an update of a removed one 404. */
async function write(backend: SearchBackend, shop: BusinessShop, mode: ShopWriteMode) {
  const outcome = await backend.putShop({ shop, mode, hash: newHash() });
  if (outcome === 'exists')
    throw contentProblems.create(
      'CONTENT_ERR_SHOP_EXISTS',
      `A shop has the id ${shop.id} already; change it with PATCH or PUT /admin/business-shops/${shop.id}`,
    );
  if (outcome === 'not-found') throw notFound(shop.id);
  return outcome;
}

function sendCreated(reply: FastifyReply, shop: BusinessShop): FastifyReply {
  return reply
    .status(201)
    .header('location', `/admin/business-shops/${encodeURIComponent(shop.id)}`)
    .send(presentShopRecord(shop));
}
