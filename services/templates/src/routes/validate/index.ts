import { validateSource } from '@triad/device-templates';
import { readTemplateSource, useTemplateSourceParsers } from '../../http/source-body-parsers.js';
import { presentValidation } from '../../presenters/validation-presenter.js';
import { validateSchema } from './schemas.js';
import type { SchemaTypedApp } from '@triad/service-kit';

export interface ValidateRoutesOptions {
  readonly sourceBodyLimit: number;
  readonly maxJsonDepth: number;
}

/** `POST /validate`: the validator's verdict on a template source; stores nothing. */
export function validateRoutes(
  app: SchemaTypedApp,
  options: ValidateRoutesOptions,
  done: (error?: Error) => void,
): void {
  useTemplateSourceParsers(app, { maxJsonDepth: options.maxJsonDepth });
  app.post('/validate', { schema: validateSchema, bodyLimit: options.sourceBodyLimit }, (request) => {
    const { text, format } = readTemplateSource(request);
    return presentValidation(validateSource(text, { format, file: '<request body>', strict: request.query.strict }));
  });
  done();
}
