export { buildContentApiApp, type BuildContentApiAppOptions } from './app.js';
export {
  startContentApiServer,
  operatorNotes,
  type RunningContentApiServer,
  type StartContentApiServerOptions,
} from './server.js';
export {
  CONTENT_SQLITE_FILE,
  CONTENT_SQLITE_PAGE_SIZE,
  openContentApiCore,
  type ContentApiCore,
} from './content-api-core.js';
export {
  loadContentApiConfig,
  contentApiConfigSchema,
  type ContentApiConfig,
  type ContentApiConfigOverrides,
} from './config.js';
export { contentProblems, type ContentProblemCode } from './errors.js';
export { CONTENT_MIGRATION_TABLE } from './migrations/index.js';
export { contentStorageFor, type ContentStorage } from './content-api-core.js';
export { createContentAuth, type ContentAuth } from './auth/content-auth.js';
export type { SearchBackend, CatalogReplacement } from './search/search-backend.js';
export type { ContentTables } from './migrations/content-tables.js';
export type { SearchQuery, SearchPage, FilterExpression, FacetName } from './search/search-query.js';
export { searchWords } from './search/search-query.js';
export { TermDictionary } from './search/segments/term-dictionary.js';
export { suggestIndexOf, suggestWords } from './search/suggest-words.js';
export { generateCatalog, type GenerateCatalogOptions, type GeneratedCatalog } from './demo/generate-catalog.js';
export { seedDemoCatalog, type SeedOutcome } from './demo/seed-demo-catalog.js';
export type { Article, BusinessShop } from './model/article.js';
export type { Decimal } from './model/decimal.js';
export { isUnitCode, UNIT_CODES } from './model/unit-codes.js';
export { CONTENT_MEDIA_TYPE, REQUISITIONER_HEADER } from './http/media-types.js';
export type { ShopCatalogReplacement } from './search/search-backend.js';
export {
  importCatalog,
  type CatalogFormat,
  type ImportCatalogOptions,
  type ImportResult,
  type ImportFailure,
} from './commands/import-catalog.js';
export {
  importAndRecord,
  type ImportRunRecorder,
  type RecordedImport,
  type RecordedImportOptions,
} from './commands/import-and-record.js';
export { ImportRunRepository, IMPORT_RUNS_KEPT, REFUSED_RECORDS_KEPT } from './repositories/import-run-repository.js';
export type { ImportOutcome, ImportRun, ImportRunCounts, NewImportRun, RefusedRecord } from './model/import-run.js';
export { readBmecat } from './import/bmecat-reader.js';
export type { BmecatItem } from './import/bmecat-item.js';
export { CATALOG_READ_BYTES } from './import/parse-catalog.js';
export { XmlSyntaxError } from './import/xml-event-reader.js';
export { parseArticleRecord, type ParsedRecord, type RecordViolation } from './model/parse-article-record.js';
export { bmecatCatalog, jsonLinesCatalog, toJsonLinesRecord } from './demo/catalog-writers.js';
export { readJsonLines, type JsonLinesItem } from './import/json-lines-reader.js';
export { createCatalogCommand, type CatalogCommandIo, type CatalogCommandOptions } from './cli/catalog-command.js';
export { createShopsCommand } from './cli/shops-command.js';
