import { Ajv, type Options, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifySchema } from 'fastify';

const COMMON: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

/**
 * Validates the route schemas of `app`'s context with types taken as sent in JSON bodies: a number
 * where the schema says string is refused (400 `invalid_request`), never turned into `"123"`.
 * Path and query values arrive as text, so they are still converted to the schema's types
 * (`?limit=20` is the integer 20, `?with_pages=true` the boolean true).
 */
export function useStrictInputValidation(app: FastifyInstance): void {
  const bodies = new Ajv({ ...COMMON, coerceTypes: false });
  const texts = new Ajv({ ...COMMON, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) => {
    const compiled: ValidateFunction = (httpPart === 'body' ? bodies : texts).compile(schema);
    return compiled;
  });
}
