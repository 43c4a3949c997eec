export type { Problem, ProblemSeverity, ValidationResult, DocumentPath } from './problem.js';
export { toJsonPointer, fromJsonPointer } from './problem.js';
export type { ProblemDefinition } from './problem-definition.js';
export { problemCatalogue, type ProblemCode } from './errors.js';
export type { LoadedDocument, SourcePosition, SourceFormat } from './loading/loaded-document.js';
export { loadDocument, DEFAULT_LOAD_LIMITS, type LoadOptions, type LoadLimits } from './loading/load-document.js';
export { DocumentLoadError } from './loading/document-load-error.js';
export { documentFromValue } from './loading/value-document.js';
export {
  validateSource,
  validateDocument,
  validateValue,
  type ValidateOptions,
  type SourceValidationResult,
} from './validate.js';
export type { OidNameResolver } from './semantics/check-snmp-addresses.js';
export { createTemplatesCommand, SCHEMA_FILE, type TemplatesCommandOptions } from './cli/templates-command.js';
export { processIo, EXIT, raiseExit, type CliIo } from './cli/cli-io.js';
export { renderReport, summarize, REPORT_FORMATS, type ReportFormat, type ValidationSummary } from './cli/reporters.js';
export {
  createStarterTemplate,
  originTypeOf,
  STARTER_DRIVERS,
  type StarterDriver,
} from './starters/driver-starters.js';
export { renderStarter } from './starters/render-starter.js';
export { checkSchema } from './schema/check-schema.js';
export { checkSemantics } from './semantics/check-semantics.js';
export { DEVICE_VARIABLE, SUBSTITUTION_VARIABLES } from './semantics/check-substitution-variables.js';
export {
  OPCUA_DEADBAND_TYPES,
  OPCUA_IDENTITY_TYPES,
  OPCUA_SECURITY_MODES,
  OPCUA_SECURITY_POLICIES,
  effectiveSecurityPolicy,
  parseCompactNodeId,
  parseOpcuaNode,
  securityMismatch,
  type OpcuaNodeReference,
  type OpcuaPathElement,
  type ParsedOpcuaNode,
} from './semantics/opcua-settings.js';
export { templateSchema, TEMPLATE_SCHEMA_ID, type JsonSchemaObject } from './schema/template-schema.js';
export { templateValidator, rawSchemaErrors } from './schema/template-validator.js';
export { suggestKey } from './schema/suggest-key.js';
export type * from './generated/device-template.generated.js';
export * from './expressions/index.js';
export * from './pipeline/index.js';
