import {
  CLASSIFICATION_FACETS,
  FACET_NAMES,
  MATCHINGS,
  MAX_QUERY_WORDS,
  SORT_FIELDS,
} from '../../search/search-query.js';
import { MAX_HIGHLIGHT_SPANS, SNIPPET_LENGTH } from '../../search/highlight.js';
import { MAX_Q_LENGTH, MAX_SORT_KEYS, SEARCH_LIMIT, SEARCH_OFFSET } from '../../search/parse-search-query.js';
import {
  cachedContentReply,
  contentErrorResponses,
  hashParameter,
  ref,
  requisitionerHeaders,
} from '../wire-schemas.js';

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const arrayOf = (items: object) => ({ type: 'array', items }) as const;
const stringsWithLanguage = arrayOf(ref('StringWithLanguage'));
const typedValue = {
  type: 'object',
  required: ['type', 'value'],
  properties: { type: string, value: string },
} as const;
const blockPrice = {
  allOf: [
    ref('Price'),
    {
      type: 'object',
      required: ['lowerBound'],
      properties: {
        lowerBound: integer,
        validFrom: {
          type: 'string',
          description: 'extension: ISO 8601 date (or date-time) from which the price applies',
        },
        validUntil: { type: 'string', description: 'extension: ISO 8601 date (or date-time) until which it applies' },
        territories: {
          ...arrayOf(string),
          description:
            'extension: ISO 3166 countries where the price applies (sent with validFrom/validUntil; empty: all)',
        },
        bmecatPriceType: {
          type: 'string',
          description:
            'extension: the BMEcat price_type the price was read from (net_customer, net_list, ' +
            "gros_list made net ...), by the shop's priceTypes",
        },
      },
    },
  ],
} as const;
const unitPair = {
  type: 'object',
  required: ['unit', 'providerUnit'],
  properties: {
    unit: { type: 'string', description: 'unit code of the accepted set' },
    providerUnit: { type: 'string', description: 'the code as the catalog gave it' },
  },
} as const;

const hitArticle = {
  type: 'object',
  required: [
    'id',
    'description',
    'descriptions',
    'supplierArticleId',
    'minimumOrderQuantity',
    'orderQuantityInterval',
    'pricePerMinimumOrderQuantity',
    'orderUnit',
    'shippingCostsEstimated',
    'articleFeatures',
    'keywords',
    'keywordsGroupedByLanguage',
  ],
  properties: {
    id: string,
    description: { type: 'string', description: 'not localized' },
    descriptions: stringsWithLanguage,
    manufacturerArticleId: string,
    manufacturerName: string,
    supplierArticleId: string,
    minimumOrderQuantity: integer,
    orderQuantityInterval: { type: 'integer', description: 'orders only in multiples of it' },
    pricePerMinimumOrderQuantity: ref('Price'),
    pricePerMinimumOrderQuantityInclSpecialTaxes: {
      ...ref('Price'),
      description: 'only for articles with special taxes',
    },
    orderUnit: { type: 'string', description: 'unit code' },
    shippingCostsEstimated: {
      ...ref('Money'),
      description: 'estimate for an order of only this article at its minimum order quantity',
    },
    firstMimeImage: ref('Mime'),
    firstMimeImages: ref('MimeWithLanguage'),
    articleFeatures: arrayOf(ref('ArticleFeatures')),
    keywords: arrayOf(string),
    keywordsGroupedByLanguage: arrayOf({
      type: 'object',
      required: ['lang', 'values'],
      properties: { lang: string, values: arrayOf(string) },
    }),
  },
} as const;

/** Where matched words are in one text of a hit (`highlight=true`). */
const textHighlight = {
  type: 'object',
  required: ['spans', 'snippet'],
  properties: {
    spans: {
      type: 'array',
      maxItems: MAX_HIGHLIGHT_SPANS,
      description:
        `[start, end) of each matched word, UTF-16 offsets into the whole text; ` + `at most ${MAX_HIGHLIGHT_SPANS}`,
      items: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 },
    },
    snippet: {
      type: 'string',
      description:
        `about ${SNIPPET_LENGTH} characters around the first match, HTML-escaped, matched words in ` +
        '<mark></mark> (the only markup), … where the text was cut',
    },
  },
} as const;

const searchResult = {
  type: 'object',
  required: ['total', 'offset', 'limit', 'members', 'facets', '_status', '_schema'],
  properties: {
    total: { type: 'integer', description: 'articles matching, over all slices' },
    offset: integer,
    limit: integer,
    members: arrayOf({
      type: 'object',
      required: ['article', 'score', '_schema'],
      properties: {
        article: hitArticle,
        score: { type: 'number', description: 'relevance; the scale may change' },
        _schema: { ...ref('Links'), description: 'links details, bshop and business-shop' },
        highlights: {
          type: 'object',
          description:
            'only with highlight=true: where the words q matched (in any way matching allows) are in the ' +
            "hit's texts; each member only when that text holds one",
          properties: {
            title: { ...textHighlight, description: 'in article.description' },
            description: {
              ...textHighlight,
              required: [...textHighlight.required, 'lang'],
              properties: {
                ...textHighlight.properties,
                lang: { type: 'string', description: 'the entry of article.descriptions the spans point into' },
              },
              description: 'in the first other entry of article.descriptions that holds a matched word',
            },
          },
        },
      },
    }),
    facets: arrayOf({
      type: 'object',
      required: ['facetName', 'buckets'],
      properties: {
        facetName: { type: 'string', enum: [...FACET_NAMES], description: 'may grow' },
        buckets: arrayOf({
          type: 'object',
          required: ['bucketType', 'value', 'count', '_schema'],
          properties: {
            bucketType: { type: 'string', enum: ['STRING'] },
            value: { type: 'string', description: "'' counts the articles without a value (and the rest bucket)" },
            count: integer,
            label: {
              type: 'string',
              description:
                'the name the catalog gave the classification group (`groupName`), when one did; ' +
                'never on the "" bucket, the rest bucket or manufacturerName and businessShopId',
            },
            otherValues: {
              type: 'integer',
              description: 'only on the rest bucket (the 100th, last): how many further values it counts',
            },
            _schema: {
              ...ref('Links'),
              description: 'apply-filter, when the facet has more than one bucket (none on the rest bucket)',
            },
          },
        }),
      },
    }),
    _status: ref('Status'),
    _schema: { ...ref('Links'), description: 'self, next, prev, first, last' },
  },
} as const;

/** `GET /api/articles`. */
export const searchArticlesSchema = {
  tags: ['articles'],
  operationId: 'searchArticles',
  summary: 'Search articles by text, filter and shop, with sorting, paging and facets',
  description:
    'Replies `Cache-Control: private, max-age=300`, or immutable caching when `hash` names the current ' +
    'content version. Unknown parameters are ignored.',
  headers: requisitionerHeaders,
  querystring: {
    type: 'object',
    properties: {
      q: {
        type: 'string',
        maxLength: MAX_Q_LENGTH,
        description: `query text, at most ${MAX_QUERY_WORDS} words; absent: every article`,
      },
      matching: {
        type: 'string',
        enum: [...MATCHINGS],
        description:
          'how the words of q match. default (also when absent): as typed or with ä/ö/ü/ß spelled ' +
          'ae/oe/ue/ss (and back); ' +
          'the last word also as the start of a word (from 2 letters); words of 5 to 8 letters with ' +
          'one typo, of 9 or more with two (a letter added, missing, replaced, or two swapped), never ' +
          'words with digits (numbers, article ids, GTINs); words of 4 letters or more also inside ' +
          "compounds split by the catalog's own words (Bohrer: Akkubohrer). Hits matching every word as " +
          'typed come first, then by prefix, then in compounds, then with typos. exact: only the words as ' +
          'typed (accents ignored)',
      },
      highlight: {
        type: 'boolean',
        default: false,
        description: 'true: every hit carries highlights, where the words of q matched in its texts',
      },
      fq: {
        type: 'string',
        description:
          'filter query, JSON: {"expression": E} where E has a `type` of And / Or (operands), ' +
          'ExactStringMatchFilter (filterName businessShopId or manufacturerName, value), DecimalRangeFilter ' +
          '(filterName pricePerMinimumOrderQuantity[InclSpecialTaxes], lowerBound, upperBound) or ' +
          `ExactReferenceFeatureMatchFilter (filterName ${CLASSIFICATION_FACETS.join(', ')}; group)`,
      },
      businessShopId: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'only articles of these shops',
      },
      currency: {
        type: 'string',
        pattern: '^[A-Z]{3}$',
        description:
          'only articles of shops selling in this currency; required by a price filter or price sort over ' +
          'shops of more than one currency',
      },
      limit: { type: 'integer', minimum: 0, maximum: SEARCH_LIMIT.maximum, default: SEARCH_LIMIT.default },
      offset: { type: 'integer', minimum: 0, maximum: SEARCH_OFFSET.maximum, default: SEARCH_OFFSET.default },
      sort: {
        type: 'string',
        description:
          `comma-separated, at most ${MAX_SORT_KEYS} items of + or - and a field: ${SORT_FIELDS.join(', ')} ` +
          '(score only orders when q is given)',
      },
      facet: {
        type: 'array',
        items: { type: 'string', enum: [...FACET_NAMES] },
        description:
          'only these facets (repeatable); absent: every facet. Counting a facet costs time per matching article',
      },
      hash: hashParameter,
    },
  },
  response: { 200: cachedContentReply('The search result', searchResult), ...contentErrorResponses() },
} as const;

const articleDetail = {
  type: 'object',
  required: [
    'id',
    'description',
    'descriptions',
    'mimeInfo',
    'mimeInfos',
    'articleFeatures',
    'details',
    'blockPricing',
    'blockPricingInclSpecialTax',
    'specialTaxes',
    'orderDetails',
    'references',
    '_status',
    '_schema',
  ],
  properties: {
    id: string,
    description: string,
    descriptions: stringsWithLanguage,
    manufacturerArticleId: string,
    manufacturerName: string,
    mimeInfo: arrayOf(ref('Mime')),
    mimeInfos: arrayOf(ref('MimeWithLanguage')),
    articleFeatures: arrayOf(ref('ArticleFeatures')),
    keywords: { ...arrayOf(string), description: 'extension: as in a search hit' },
    keywordsGroupedByLanguage: {
      ...arrayOf({
        type: 'object',
        required: ['lang', 'values'],
        properties: { lang: string, values: arrayOf(string) },
      }),
      description: 'extension: as in a search hit',
    },
    details: {
      type: 'object',
      required: ['descriptionsLong', 'supplierArticleId', 'internationalArticleId'],
      properties: {
        descriptionLong: string,
        descriptionsLong: stringsWithLanguage,
        supplierArticleId: string,
        internationalArticleId: arrayOf(typedValue),
        supplierAlternativeArticleId: {
          type: 'string',
          description: "extension: the supplier's other article number (BMEcat SUPPLIER_ALT_AID)",
        },
        buyerArticleId: {
          ...arrayOf(typedValue),
          description: "extension: buyers' article numbers (BMEcat BUYER_AID), type naming the buyer's scheme",
        },
        articleStatus: {
          ...arrayOf(typedValue),
          description:
            "extension: status marks (BMEcat ARTICLE_STATUS), type such as core_article, value the supplier's text",
        },
        remarks: { ...stringsWithLanguage, description: "extension: the supplier's remarks (BMEcat REMARKS)" },
        specialTreatmentClass: {
          ...arrayOf(typedValue),
          description:
            'extension: regulations (BMEcat SPECIAL_TREATMENT_CLASS), type such as GGVS or GHS, value the class',
        },
        customsTariffNumber: { type: 'string', description: 'extension: customs tariff number (BMEcat 2005)' },
        countryOfOrigin: { type: 'string', description: 'extension: ISO 3166 country of origin (BMEcat 2005)' },
        weight: {
          type: 'object',
          required: ['quantity', 'unit'],
          properties: { quantity: ref('Decimal'), unit: { type: 'string', enum: ['KGM'] } },
          description: 'extension: weight of one order unit (BMEcat 2005 PRODUCT_DIMENSIONS/WEIGHT), in kilograms',
        },
      },
    },
    blockPricing: arrayOf(blockPrice),
    blockPricingInclSpecialTax: arrayOf(blockPrice),
    specialTaxes: arrayOf({
      type: 'object',
      required: ['amount', 'currency', 'taxType'],
      properties: { amount: ref('Decimal'), currency: string, taxType: string },
    }),
    orderDetails: {
      type: 'object',
      required: ['orderUnit', 'minimumOrderQuantity', 'orderQuantityInterval', 'priceQuantity', 'unitInfo'],
      properties: {
        orderUnit: { type: 'string', description: 'unit code' },
        contentUnit: { type: 'string', description: 'unit code' },
        numberOfContentUnitsPerOrderUnit: ref('Decimal'),
        minimumOrderQuantity: integer,
        orderQuantityInterval: integer,
        priceQuantity: { type: 'integer', description: 'prices apply to this many order units' },
        deliveryTime: { type: 'integer', description: 'estimated days' },
        unitInfo: {
          type: 'object',
          description:
            'each unit as the service normalised it (`unit`, a code of the accepted set) beside the code the ' +
            'provider wrote (`providerUnit`; the same when no mapping was needed)',
          required: ['orderUnit'],
          properties: { orderUnit: unitPair, contentUnit: unitPair },
        },
      },
    },
    references: arrayOf({
      type: 'object',
      required: ['articleReferenceType', 'refId'],
      properties: { articleReferenceType: string, refId: string },
    }),
    _status: ref('Status'),
    _schema: {
      ...ref('Links'),
      description: 'self, business-shop, return-policy, shipping-costs, minimum-order-value',
    },
  },
} as const;

/** `GET /api/articles/{articleId}`. */
export const readArticleSchema = {
  tags: ['articles'],
  operationId: 'getArticle',
  summary: 'One article with prices, units, features and links',
  description: 'Replies `Cache-Control` as the search does.',
  headers: requisitionerHeaders,
  params: {
    type: 'object',
    required: ['articleId'],
    properties: { articleId: { type: 'string', description: 'the article id' } },
  },
  querystring: { type: 'object', properties: { hash: hashParameter } },
  response: {
    200: cachedContentReply('The article detail', articleDetail),
    ...contentErrorResponses({ 404: 'No article has this id' }),
  },
} as const;
