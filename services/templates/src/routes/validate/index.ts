import { validateSource, type OidNameResolver } from '@triad/device-templates';
import { readTemplateSource, useTemplateSourceParsers } from '../../http/source-body-parsers.js';
import { presentValidation } from '../../presenters/validation-presenter.js';
import { validateSchema } from './schemas.js';
import type { SchemaTypedApp } from '@triad/service-kit';

export interface ValidateRoutesOptions {
  readonly sourceBodyLimit: number;
  readonly maxJsonDepth: number;
  /** Resolves MIB names in SNMP addresses; without it only their form is checked. */
  readonly oidNames?: OidNameResolver;
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
    const { strict } = request.query;
    const oidNames = options.oidNames ? { oidNames: options.oidNames } : {};
    return presentValidation(validateSource(text, { format, file: '<request body>', strict, ...oidNames }));
  });
  done();
}
