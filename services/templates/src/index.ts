export { buildTemplatesApp, type BuildTemplatesAppOptions } from './app.js';
export {
  startTemplatesServer,
  TEMPLATES_SQLITE_FILE,
  type RunningTemplatesServer,
  type StartTemplatesServerOptions,
} from './server.js';
export {
  loadTemplatesConfig,
  templatesConfigSchema,
  type TemplatesConfig,
  type TemplatesConfigOverrides,
} from './config.js';
export { templatesProblems, type TemplatesProblemCode } from './errors.js';
export { mibNameResolver } from './templates-core.js';
export { templatesMigrations, TEMPLATES_MIGRATION_TABLE } from './migrations/index.js';
export { compareVersions, newestFirst } from './model/compare-versions.js';
export { seedExampleTemplates, defaultExamplesDirectory, type SeedOutcome } from './demo/seed-example-templates.js';
export { createDevicesCommand, DEFAULT_TEMPLATES_URL, type DevicesCommandOptions } from './cli/devices-command.js';
export { createTokensCommand, type TokensCommandOptions } from './cli/tokens-command.js';
export { TokenRepository } from './repositories/token-repository.js';
export { TOKEN_SCOPES, type TokenScope } from './model/token-scope.js';
export { DeviceHistoryRepository } from './repositories/device-history-repository.js';
export { HISTORY_BATCH_SIZE } from './model/device-history.js';
export { HistoryWriter, type HistoryWriterStats } from './devices/history-writer.js';
export type { TemplatesDatabase } from './repositories/templates-tables.js';
