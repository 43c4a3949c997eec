import { errorResponse, errorResponses, PROBLEM_ERROR_BODY, withResponseHeaders } from '@triad/service-kit';
import { DEFAULT_PRICE_TYPES, LANGUAGES } from '../../model/article.js';
import { PRICE_TYPE_PATTERN, SHOP_DEFAULTS, SHOP_ID_PATTERN, SHOP_LIMITS } from '../../model/parse-shop-record.js';
import { shopParams } from '../business-shops/schemas.js';
import { ref } from '../wire-schemas.js';

const string = { type: 'string' } as const;
const currency = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' } as const;

/** A Decimal in a request: `decimalDigits` may be left out (0). */
const decimalIn = {
  type: 'object',
  required: ['value'],
  additionalProperties: false,
  properties: {
    value: { type: 'integer' },
    decimalDigits: { type: 'integer', minimum: 0, maximum: SHOP_LIMITS.decimalDigits, description: 'default 0' },
  },
} as const;

/** Money in a request: `currency` may be left out (the shop's); given, it must be the shop's. */
const moneyIn = (description: string, nullable = false) =>
  ({
    type: nullable ? ['object', 'null'] : 'object',
    description,
    required: ['amount'],
    additionalProperties: false,
    properties: { amount: { ...decimalIn, description: 'not negative' }, currency },
  }) as const;

/**
 * The shop record a client sends: `BusinessShop` without links. `nullable`: a change, where
 * `null` removes `freeShippingFrom` or `surchargeBelow`.
 */
const shopRecordIn = (required: readonly string[], change: boolean) =>
  ({
    type: 'object',
    required,
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: SHOP_ID_PATTERN.source },
      name: { type: 'string', minLength: 1, maxLength: SHOP_LIMITS.nameLength },
      currency: {
        ...currency,
        description:
          `ISO 4217 code of all its amounts; catalog prices in another currency are refused` +
          (change ? '' : `; default ${SHOP_DEFAULTS.currency}`),
      },
      defaultTax: {
        ...decimalIn,
        type: change ? ['object', 'null'] : 'object',
        description:
          'VAT rate (fraction 0 to 1) for catalog prices without TAX; absent: such prices are refused' +
          (change ? '; null removes it' : ''),
      },
      priceTypes: {
        type: change ? ['array', 'null'] : 'array',
        minItems: 1,
        maxItems: SHOP_LIMITS.priceTypes,
        uniqueItems: true,
        items: { type: 'string', pattern: PRICE_TYPE_PATTERN.source, maxLength: SHOP_LIMITS.priceTypeLength },
        description:
          `BMEcat price types taken from catalogs, most preferred first; default ${DEFAULT_PRICE_TYPES.join(', ')}` +
          (change ? '; null resets it' : ''),
      },
      returnPolicy: {
        type: 'object',
        additionalProperties: false,
        properties: {
          returnsAccepted: { type: 'boolean', description: `default ${SHOP_DEFAULTS.returnsAccepted}` },
          returnPeriodDays: {
            type: 'integer',
            minimum: 0,
            maximum: SHOP_LIMITS.returnPeriodDays,
            description: 'days after delivery; default 14, or 0 when returns are not accepted',
          },
          restockingFee: { ...decimalIn, description: 'fraction of the goods value, 0 to 1; default 0' },
          conditions: { type: 'array', maxItems: SHOP_LIMITS.conditions, items: ref('StringWithLanguage') },
        },
      },
      shippingCosts: {
        type: 'object',
        additionalProperties: false,
        properties: {
          standard: moneyIn('per order; default 0'),
          freeShippingFrom: moneyIn('orders of at least this net value ship free; absent: never', change),
          countries: {
            type: 'array',
            maxItems: SHOP_LIMITS.countries,
            uniqueItems: true,
            items: { type: 'string', pattern: '^[A-Z]{2}$' },
            description: 'ISO 3166-1 alpha-2 codes shipped to; default none stated',
          },
        },
      },
      minimumOrderValue: {
        type: 'object',
        additionalProperties: false,
        properties: {
          amount: moneyIn('minimum net order value; default 0'),
          surchargeBelow: moneyIn('charged below the minimum; absent: such orders are refused', change),
        },
      },
    },
  }) as const;

/** The whole stored record, as every admin reply sends it. */
const shopRecord = {
  type: 'object',
  required: ['id', 'name', 'currency', 'priceTypes', 'returnPolicy', 'shippingCosts', 'minimumOrderValue'],
  properties: {
    id: string,
    name: string,
    currency: string,
    defaultTax: ref('Decimal'),
    priceTypes: {
      type: 'array',
      items: string,
      description: 'BMEcat price types taken from catalogs, most preferred first (gros_* made net)',
    },
    returnPolicy: {
      type: 'object',
      required: ['returnsAccepted', 'returnPeriodDays', 'restockingFee', 'conditions'],
      properties: {
        returnsAccepted: { type: 'boolean' },
        returnPeriodDays: { type: 'integer' },
        restockingFee: ref('Decimal'),
        conditions: { type: 'array', items: ref('StringWithLanguage') },
      },
    },
    shippingCosts: {
      type: 'object',
      required: ['standard', 'countries'],
      properties: {
        standard: ref('Money'),
        freeShippingFrom: ref('Money'),
        countries: { type: 'array', items: string },
      },
    },
    minimumOrderValue: {
      type: 'object',
      required: ['amount'],
      properties: { amount: ref('Money'), surchargeBelow: ref('Money') },
    },
  },
} as const;

const json = (description: string, schema: object) =>
  ({ description, content: { 'application/json': { schema } } }) as const;

const invalidRecord = {
  422: errorResponse(
    PROBLEM_ERROR_BODY,
    `The record breaks a rule (code CONTENT_ERR_SHOP_INVALID; languages ${LANGUAGES.join(', ')}); nothing changed`,
    {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['pointer', 'message'],
          properties: { pointer: string, message: string },
        },
      },
    },
  ),
};

/** 401 (with `WWW-Authenticate`), 403, 500, plus `more`; all problem+json. */
export function adminErrors(more: Readonly<Record<number, string>> = {}) {
  return {
    401: withResponseHeaders(errorResponse(PROBLEM_ERROR_BODY, 'The bearer token is missing, not valid or expired'), {
      'WWW-Authenticate': { type: 'string', description: 'Bearer realm="content-api", error="invalid_token" ...' },
    }),
    ...errorResponses(PROBLEM_ERROR_BODY, {
      403: 'The token lacks the admin scope (a read token never has it)',
      500: true,
      ...more,
    }),
  };
}

/** Errors of a route with a JSON body: 400 not JSON, 413, 415, 422, and `more`. */
function bodyErrors(more: Readonly<Record<number, string>> = {}) {
  return {
    ...adminErrors({
      400: 'The body is not a JSON object (malformed or empty)',
      413: 'The body is too large',
      415: 'The body is not application/json',
      ...more,
    }),
    ...invalidRecord,
  };
}

const tags = ['admin'];
const created = (description: string) =>
  withResponseHeaders(json(description, shopRecord), {
    Location: { type: 'string', description: 'path of the shop in the admin API' },
  });

/** `GET /admin/business-shops`. */
export const listShopRecordsSchema = {
  tags,
  operationId: 'adminListShops',
  summary: 'Every shop with its whole record',
  response: {
    200: json('The shops, ordered by id', {
      type: 'object',
      required: ['total', 'members'],
      properties: { total: { type: 'integer' }, members: { type: 'array', items: shopRecord } },
    }),
    ...adminErrors(),
  },
} as const;

/** `GET /admin/business-shops/{shopId}`. */
export const readShopRecordSchema = {
  tags,
  operationId: 'adminGetShop',
  summary: "A shop's whole record",
  params: shopParams,
  response: { 200: json('The shop', shopRecord), ...adminErrors({ 404: 'No business shop has this id' }) },
} as const;

/** `POST /admin/business-shops`. */
export const createShopSchema = {
  tags,
  operationId: 'adminCreateShop',
  summary: 'Add a shop (terms not given take their defaults)',
  body: shopRecordIn(['id', 'name'], false),
  response: { 201: created('The new shop'), ...bodyErrors({ 409: 'A shop has this id already' }) },
} as const;

/** `PUT /admin/business-shops/{shopId}`. */
export const putShopSchema = {
  tags,
  operationId: 'adminPutShop',
  summary: "Create or replace a shop's whole record (its articles stay)",
  params: shopParams,
  body: shopRecordIn(['name'], false),
  response: {
    200: json('The replaced shop', shopRecord),
    201: created('The new shop'),
    ...bodyErrors(),
  },
} as const;

/** `PATCH /admin/business-shops/{shopId}`. */
export const patchShopSchema = {
  tags,
  operationId: 'adminPatchShop',
  summary: "Change members of a shop's record (section by section; null removes an optional amount)",
  params: shopParams,
  body: shopRecordIn([], true),
  response: { 200: json('The changed shop', shopRecord), ...bodyErrors({ 404: 'No business shop has this id' }) },
} as const;

/** `DELETE /admin/business-shops/{shopId}`. */
export const deleteShopSchema = {
  tags,
  operationId: 'adminDeleteShop',
  summary: 'Remove a shop (with withArticles=true also its articles, in one transaction)',
  params: shopParams,
  querystring: {
    type: 'object',
    properties: {
      withArticles: {
        type: 'string',
        enum: ['true', 'false'],
        default: 'false',
        description: "also remove the shop's articles; without it a shop with articles is refused (409)",
      },
    },
  },
  response: {
    204: { description: 'Removed', type: 'null' },
    ...adminErrors({
      400: 'withArticles is neither true nor false',
      404: 'No business shop has this id',
      409: 'The shop has articles and withArticles is not true (the problem carries articles); nothing changed',
    }),
  },
} as const;
