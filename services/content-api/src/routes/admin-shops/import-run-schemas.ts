import { IMPORT_MODES } from '../../model/import-mode.js';
import { IMPORT_OUTCOMES, WARNINGS_KEPT } from '../../model/import-run.js';
import { IMPORT_RUNS_KEPT, REFUSED_RECORDS_KEPT } from '../../repositories/import-run-repository.js';
import { shopParams } from '../business-shops/schemas.js';
import { adminErrors } from './schemas.js';

const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;
const headerText = (element: string) =>
  ({ type: ['string', 'null'], description: `the header's ${element}, trimmed` }) as const;
const nullableCount = (description: string) => ({ type: ['integer', 'null'], minimum: 0, description }) as const;

/** One recorded catalog import. */
const importRun = {
  type: 'object',
  required: [
    'runNo',
    'shopId',
    'fileName',
    'format',
    'mode',
    'startedAt',
    'finishedAt',
    'outcome',
    'refusal',
    'counts',
    'refusedRecords',
    'refusedNotListed',
    'warnings',
    'decisions',
    'catalog',
  ],
  properties: {
    runNo: { type: 'integer', minimum: 1, description: "the shop's imports counted from 1" },
    shopId: { type: 'string' },
    fileName: { type: 'string', description: 'the file imported, without its directory; - for standard input' },
    format: { type: 'string', enum: ['bmecat', 'jsonl'], description: 'BMEcat or JSON Lines' },
    mode: {
      type: ['string', 'null'],
      enum: [...IMPORT_MODES, null],
      description: 'what the import did (its transaction kind); null when the file contradicted the mode asked for',
    },
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: 'string', format: 'date-time' },
    outcome: {
      type: 'string',
      enum: [...IMPORT_OUTCOMES],
      description: 'committed; committed with some records refused (skipped); or refused: nothing committed',
    },
    refusal: { type: ['string', 'null'], description: 'why nothing was committed; null unless refused' },
    counts: {
      type: 'object',
      required: ['records', 'imported', 'added', 'updated', 'deleted', 'alreadyAbsent', 'refused'],
      properties: {
        records: count('records read'),
        imported: count("articles stored: a replacement's whole catalog, or a delta's added and updated"),
        added: nullableCount('articles a delta added; null for a replacement'),
        updated: nullableCount('articles a delta replaced or repriced; null for a replacement'),
        deleted: count('articles deleted'),
        alreadyAbsent: count('deletes naming an article the shop did not hold'),
        refused: count('records refused, all of them'),
      },
    },
    refusedRecords: {
      type: 'array',
      maxItems: REFUSED_RECORDS_KEPT,
      description: `the first ${REFUSED_RECORDS_KEPT} refused records, by line`,
      items: {
        type: 'object',
        required: ['line', 'supplierArticleId', 'reason'],
        properties: {
          line: { type: 'integer', minimum: 0, description: 'the 1-based line the record starts on' },
          supplierArticleId: {
            type: ['string', 'null'],
            description:
              "the record's supplier article id (BMEcat SUPPLIER_AID or SUPPLIER_PID); null when it has none",
          },
          reason: {
            type: 'string',
            description:
              'why, in the words of the file: for BMEcat the element path (ARTICLE_ORDER_DETAILS/ORDER_UNIT) with a ' +
              'hint, for JSON Lines the JSON pointer',
          },
        },
      },
    },
    refusedNotListed: count('refused records beyond those listed'),
    warnings: {
      type: 'array',
      maxItems: WARNINGS_KEPT,
      description:
        'what the file held that Triad does not keep (kind unkept-element: a BMEcat element path, how many, the ' +
        'first line), or kept in another form than it gave (feature-name-unresolved, feature-value-unresolved, ' +
        `feature-without-name, repeated-element); the first ${WARNINGS_KEPT}, by first line`,
      items: {
        type: 'object',
        required: ['kind', 'path', 'count', 'line', 'message'],
        properties: {
          kind: { type: 'string', description: 'what happened, in stable words: unkept-element ...' },
          path: {
            type: 'string',
            description:
              'BMEcat element path: from the item (ARTICLE/ARTICLE_DETAILS/SEGMENT) or below the root ' +
              "(HEADER/CATALOG/TERRITORY); '' for the whole file",
          },
          count: { type: 'integer', minimum: 1, description: 'how many times, across the file' },
          line: { type: 'integer', minimum: 0, description: 'the 1-based line of the first one' },
          message: { type: 'string' },
        },
      },
    },
    decisions: {
      type: ['object', 'null'],
      description:
        "how the import took the file's prices, as triad catalog check reports them; null for runs recorded " +
        'before Triad kept them',
      required: ['defaultTaxUsed', 'priceTypesUsed'],
      properties: {
        defaultTaxUsed: count("records whose prices gave no tax (TAX, TAX_DETAILS) and took the shop's default tax"),
        priceTypesUsed: {
          type: 'object',
          description:
            "records by the BMEcat price_type their prices were taken from (the shop's priceTypes chose); " +
            'empty when the file named none',
          additionalProperties: { type: 'integer', minimum: 0 },
        },
      },
    },
    catalog: {
      type: ['object', 'null'],
      description:
        'BMEcat: which catalog the file was and who sent it, as its HEADER said (each member null when the file ' +
        'gave no such element); null for JSON Lines, a file refused before its header was read, and runs ' +
        'recorded before Triad kept it',
      required: [
        'catalogId',
        'catalogVersion',
        'catalogName',
        'generationDate',
        'supplierId',
        'supplierName',
        'buyerName',
        'generatorInfo',
      ],
      properties: {
        catalogId: headerText('CATALOG/CATALOG_ID'),
        catalogVersion: headerText('CATALOG/CATALOG_VERSION'),
        catalogName: headerText('CATALOG/CATALOG_NAME, the first one'),
        generationDate: headerText(
          'CATALOG/GENERATION_DATE (2005), or CATALOG/DATETIME (1.2: DATE, then T and TIME, then TIMEZONE)',
        ),
        supplierId: headerText('SUPPLIER/SUPPLIER_ID, the first one'),
        supplierName: headerText('SUPPLIER/SUPPLIER_NAME'),
        buyerName: headerText('BUYER/BUYER_NAME'),
        generatorInfo: headerText('GENERATOR_INFO: the program that wrote the file'),
      },
    },
  },
} as const;

/** `GET /admin/business-shops/{shopId}/imports`. */
export const listImportRunsSchema = {
  tags: ['admin'],
  operationId: 'adminListShopImports',
  summary: `The shop's last ${IMPORT_RUNS_KEPT} catalog imports, newest first`,
  params: shopParams,
  response: {
    200: {
      description: `The shop's recorded imports, newest first (at most ${IMPORT_RUNS_KEPT})`,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['total', 'members'],
            properties: { total: { type: 'integer' }, members: { type: 'array', items: importRun } },
          },
        },
      },
    },
    ...adminErrors({ 404: 'No business shop has this id, and none was ever imported into' }),
  },
} as const;
