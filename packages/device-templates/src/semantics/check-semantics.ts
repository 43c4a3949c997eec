import type { LoadedDocument } from '../loading/loaded-document.js';
import type { Problem } from '../problem.js';
import { checkAlertEvaluations } from './check-alert-evaluations.js';
import { checkDatapointSets } from './check-datapoint-sets.js';
import { checkExpressions } from './check-expressions.js';
import { checkLiteralSecrets } from './check-literal-secrets.js';
import { checkMqtt } from './check-mqtt.js';
import { checkOpcua } from './check-opcua.js';
import { checkOriginTypes } from './check-origin-types.js';
import { checkRangerFilter } from './check-ranger-filter.js';
import { checkRepresentation } from './check-representation.js';
import { checkRouting } from './check-routing.js';
import { checkSubstitutionVariables } from './check-substitution-variables.js';
import { checkUnits } from './check-units.js';
import { checkUnknownKeys } from './check-unknown-keys.js';
import { checkSchemaKey } from './check-schema-key.js';
import { checkSnmpAddresses, type OidNameResolver } from './check-snmp-addresses.js';
import { checkVersions } from './check-versions.js';
import { SemanticReporter, type SemanticCheck } from './semantic-reporter.js';
import { buildTemplateModel } from './template-walker.js';

/**
 * The checks of the semantic pass that report through a `SemanticReporter`, in the order they run (`checkExpressions`
 * runs after them).
 */
export const semanticChecks: readonly SemanticCheck[] = Object.freeze([
  checkVersions,
  checkSchemaKey,
  checkRangerFilter,
  checkSubstitutionVariables,
  checkLiteralSecrets,
  checkOriginTypes,
  checkMqtt,
  checkOpcua,
  checkDatapointSets,
  checkUnknownKeys,
  checkUnits,
  checkAlertEvaluations,
  checkRouting,
  checkRepresentation,
]);

export interface SemanticOptions {
  /**
   * Resolves MIB names in SNMP addresses (`DT_ERR_SEM_SNMP_NAME_UNKNOWN`); without it only their
   * form is checked (`DT_ERR_SEM_SNMP_ADDRESS_MALFORMED`).
   */
  readonly oidNames?: OidNameResolver;
}

/**
 * Runs the checks that go beyond the schema: cross-references (drivers, sets, datapoints,
 * symbols, units), input the published schema accepts through its quirks (`DT_WARN_SEM_*`,
 * `DT_WARN_QUIRK_*`, warnings), and the template's expressions, compiled by the expression
 * language (`checkExpressions`: `DT_ERR_EXPR_*` errors and `DT_WARN_EXPR_*` warnings placed
 * inside the expression string, `DT_ERR_SEM_CALC_CYCLE`, `DT_WARN_SEM_CALC_RAW_VALUE`). None
 * repeats a schema error.
 *
 * The document may be schema-invalid: parts with the wrong shape are skipped and the function
 * never throws. It indexes the template in one pass and looks positions up only for problems.
 */
export function checkSemantics(document: LoadedDocument, options: SemanticOptions = {}): Problem[] {
  const model = buildTemplateModel(document.value);
  const reporter = new SemanticReporter(document);
  for (const check of semanticChecks) check(model, reporter);
  checkSnmpAddresses(options.oidNames)(model, reporter);
  return [...reporter.problems, ...checkExpressions(model, document)];
}
