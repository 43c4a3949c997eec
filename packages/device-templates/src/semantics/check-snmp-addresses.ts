import { isObject } from '@triad/common';
import type { DocumentPath } from '../problem.js';
import type { SemanticCheck, SemanticReporter } from './semantic-reporter.js';
import { stringOrUndefined, type SetEntry } from './template-walker.js';

/**
 * Resolves an SNMP address that is a MIB name (`IF-MIB::ifDescr.1`, `sysUpTime.0`) to its OID, or
 * says why it cannot (`message`: which module is missing, where the names were looked up). The
 * device-drivers package provides one over the MIB modules of the system and `TRIAD_MIB_DIRS`.
 */
export type OidNameResolver = (name: string) => { readonly oid?: string; readonly message?: string };

const OID = /^\.?\d+(\.\d+)*$/;
const MIB_NAME = /^([A-Za-z][A-Za-z0-9_-]*::)?[a-z][A-Za-z0-9_-]*(\.\d+)*$/;

function isSnmp(originType: string | undefined): boolean {
  return originType !== undefined && originType.toLowerCase().includes('snmp');
}

/**
 * Checks the addresses of SNMP datapoints (`addressConfig.originAddress`) and of table sets read by
 * SNMP (`tableAddress.rootAddress`): each is a dotted decimal OID, a MIB name, or (a column in a table set) a
 * column number. With `resolve`, MIB names must name an object of the modules read. Addresses with
 * a `/{NAME}/` variable are filled per device and not checked.
 */
export function checkSnmpAddresses(resolve?: OidNameResolver): SemanticCheck {
  return (model, reporter) => {
    for (const set of model.sets) {
      let snmpSet = false;
      for (const datapoint of set.datapoints) {
        const address = datapoint.value['addressConfig'];
        if (!isObject(address) || !isSnmp(stringOrUndefined(address['originType']))) continue;
        snmpSet = true;
        const text = stringOrUndefined(address['originAddress']);
        if (text === undefined || (set.isTable && /^\d+$/.test(text.trim()))) continue;
        checkAddress(text, [...datapoint.path, 'addressConfig', 'originAddress'], reporter, resolve);
      }
      if (snmpSet && set.isTable) checkRoot(set, reporter, resolve);
    }
  };
}

function checkRoot(set: SetEntry, reporter: SemanticReporter, resolve: OidNameResolver | undefined): void {
  const table = set.value['tableAddress'];
  const root = isObject(table) ? stringOrUndefined(table['rootAddress']) : undefined;
  // An empty rootAddress has its own warning (DT_WARN_SEM_TABLE_ROOT_ADDRESS_EMPTY).
  if (root === undefined || root.trim() === '') return;
  checkAddress(root, [...set.path, 'tableAddress', 'rootAddress'], reporter, resolve);
}

function checkAddress(
  text: string,
  path: DocumentPath,
  reporter: SemanticReporter,
  resolve: OidNameResolver | undefined,
): void {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.includes('/{') || OID.test(trimmed)) return;
  if (!MIB_NAME.test(trimmed)) {
    reporter.report('DT_ERR_SEM_SNMP_ADDRESS_MALFORMED', path, {
      message:
        `The SNMP address '${text}' is neither an OID nor a MIB name; write a dotted decimal OID ` +
        `(1.3.6.1.2.1.1.3.0) or a MIB name (SNMPv2-MIB::sysUpTime.0, IF-MIB::ifDescr, ifDescr.1).`,
      found: text,
    });
    return;
  }
  if (resolve === undefined) return;
  const resolved = resolve(trimmed);
  if (resolved.oid !== undefined) return;
  reporter.report('DT_ERR_SEM_SNMP_NAME_UNKNOWN', path, {
    message: `The SNMP address '${text}' cannot be resolved: ${resolved.message ?? 'unknown MIB name'}.`,
    found: text,
  });
}
