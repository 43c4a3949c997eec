import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvKeywords from 'ajv-keywords';
import { compiledTemplateSchema } from './schema-locations.js';

/**
 * Options chosen to behave like the ajv setup NetinDS validates with (ajv 8, all errors),
 * while still rejecting typos in our own schema (`strictSchema`). `verbose` makes every error
 * carry its schema node and data, which the message builder reads.
 */
const AJV_OPTIONS = {
  allErrors: true,
  verbose: true,
  strictSchema: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  // NetinDS runs ajv with strict mode off, where NaN and Infinity count as numbers.
  strictNumbers: false,
} as const;

let compiled: ValidateFunction | undefined;

/** Returns the compiled template validator, compiling it on first use. */
export function templateValidator(): ValidateFunction {
  if (compiled === undefined) {
    const ajv = new Ajv(AJV_OPTIONS);
    addKeywords(ajv, ['uniqueItemProperties']);
    compiled = ajv.compile(compiledTemplateSchema as Record<string, unknown>);
  }
  return compiled;
}

/** Runs the schema on a parsed value and returns ajv's raw errors (empty when valid). */
export function rawSchemaErrors(value: unknown): readonly ErrorObject[] {
  const validate = templateValidator();
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

// ajv-keywords is CommonJS with `module.exports = fn` and a `default` alias; under Node16
// resolution TypeScript types the default import as the module object, so take whichever is callable.
type KeywordsPlugin = (ajv: Ajv, keywords: string[]) => Ajv;
const addKeywords: KeywordsPlugin =
  typeof ajvKeywords === 'function' ? ajvKeywords : (ajvKeywords as unknown as { default: KeywordsPlugin }).default;
