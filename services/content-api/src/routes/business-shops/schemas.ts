import {
  cachedContentReply,
  contentErrorResponses,
  hashParameter,
  ref,
  requisitionerHeaders,
} from '../wire-schemas.js';

/** Business-shop list paging: `limit` default 20, at most 100; `offset` at most 10,000. */
export const SHOP_LIMIT = { default: 20, maximum: 100 } as const;
export const SHOP_OFFSET = { default: 0, maximum: 10_000 } as const;

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;

const shop = {
  type: 'object',
  required: ['id', 'name', 'currency', '_schema'],
  properties: {
    id: string,
    name: string,
    currency: string,
    _schema: { ...ref('Links'), description: 'self, return-policy, shipping-costs, minimum-order-value, articles' },
  },
} as const;

/** The `{shopId}` path parameter of a shop's resources (also the admin API's). */
export const shopParams = {
  type: 'object',
  required: ['shopId'],
  properties: { shopId: { type: 'string', description: 'the business shop id' } },
} as const;

const hashQuery = { type: 'object', properties: { hash: hashParameter } } as const;

const listSchema = {
  tags: ['business-shops'],
  headers: requisitionerHeaders,
  querystring: {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 0, maximum: SHOP_LIMIT.maximum, default: SHOP_LIMIT.default },
      offset: { type: 'integer', minimum: 0, maximum: SHOP_OFFSET.maximum, default: SHOP_OFFSET.default },
      hash: hashParameter,
    },
  },
  response: {
    200: cachedContentReply('A slice of the business shops', {
      type: 'object',
      required: ['total', 'offset', 'limit', 'members', '_status', '_schema'],
      properties: {
        total: integer,
        offset: integer,
        limit: integer,
        members: { type: 'array', items: shop },
        _status: ref('Status'),
        _schema: { ...ref('Links'), description: 'self, next, prev, first, last' },
      },
    }),
    ...contentErrorResponses(),
  },
} as const;

/** `GET /api/business-shops`. */
export const listShopsSchema = {
  ...listSchema,
  operationId: 'listBusinessShops',
  summary: 'List business shops',
} as const;

/** `GET /api/bshops`: the same list under the path the entry point's `bshops` example shows. */
export const listShopsAliasSchema = {
  ...listSchema,
  operationId: 'listBusinessShopsAlias',
  summary: 'List business shops (alias of /api/business-shops)',
} as const;

/** `GET /api/business-shops/{shopId}`. */
export const readShopSchema = {
  tags: ['business-shops'],
  operationId: 'getBusinessShop',
  summary: 'One business shop',
  headers: requisitionerHeaders,
  params: shopParams,
  querystring: hashQuery,
  response: {
    200: cachedContentReply('The shop', {
      allOf: [shop, { type: 'object', required: ['_status'], properties: { _status: ref('Status') } }],
    }),
    ...contentErrorResponses({ 404: 'No business shop has this id' }),
  },
} as const;

const subResource = (
  operationId: string,
  summary: string,
  description: string,
  required: readonly string[],
  properties: object,
) =>
  ({
    tags: ['business-shops'],
    operationId,
    summary,
    headers: requisitionerHeaders,
    params: shopParams,
    querystring: hashQuery,
    response: {
      200: cachedContentReply(description, {
        type: 'object',
        required: ['businessShopId', ...required, '_status', '_schema'],
        properties: { businessShopId: string, ...properties, _status: ref('Status'), _schema: ref('Links') },
      }),
      ...contentErrorResponses({ 404: 'No business shop has this id' }),
    },
  }) as const;

/** `GET /api/business-shops/{shopId}/return-policy`. */
export const returnPolicySchema = {
  ...subResource(
    'getReturnPolicy',
    "A shop's return policy",
    'The return policy',
    ['returnsAccepted', 'returnPeriodDays', 'restockingFee', 'conditions'],
    {
      returnsAccepted: { type: 'boolean' },
      returnPeriodDays: { type: 'integer', description: 'days after delivery' },
      restockingFee: { ...ref('Decimal'), description: 'fraction of the goods value' },
      conditions: { type: 'array', items: ref('StringWithLanguage') },
    },
  ),
} as const;

/** `GET /api/business-shops/{shopId}/shipping-costs`. */
export const shippingCostsSchema = {
  ...subResource('getShippingCosts', "A shop's shipping costs", 'The shipping costs', ['standard', 'countries'], {
    standard: ref('Money'),
    freeShippingFrom: { ...ref('Money'), description: 'orders of at least this net value ship free; absent: never' },
    countries: { type: 'array', items: string },
  }),
} as const;

/** `GET /api/business-shops/{shopId}/minimum-order-value`. */
export const minimumOrderValueSchema = {
  ...subResource(
    'getMinimumOrderValue',
    "A shop's minimum order value",
    'The minimum order value',
    ['minimumOrderValue'],
    {
      minimumOrderValue: ref('Money'),
      surchargeBelow: { ...ref('Money'), description: 'charged below the minimum; absent: such orders are refused' },
    },
  ),
} as const;
