export type { Problem, ProblemSeverity, ValidationResult, DocumentPath } from './problem.js';
export { toJsonPointer, fromJsonPointer } from './problem.js';
export type { ProblemDefinition } from './problem-definition.js';
export { problemCatalogue, type ProblemCode } from './errors.js';
export type { LoadedDocument, SourcePosition, SourceFormat } from './loading/loaded-document.js';
export { loadDocument, type LoadOptions, type LoadLimits } from './loading/load-document.js';
export { DocumentLoadError } from './loading/document-load-error.js';
export { documentFromValue } from './loading/value-document.js';
export { validateSource, validateDocument, validateValue, type ValidateOptions, type SourceValidationResult } from './validate.js';
