import { describe, expect, it } from 'vitest';
import { documentFromValue } from '../loading/value-document.js';
import { objectAt } from '../test-support/fixture-paths.js';
import { checkSemantics } from './check-semantics.js';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';

const address = (t: ReturnType<typeof validTemplate>, set: number, point: number) =>
  objectAt(t, 'datapointSets', set, 'datapoints', point, 'addressConfig');

const names: Record<string, string> = {
  'IF-MIB::ifTable': '1.3.6.1.2.1.2.2',
  'SNMPv2-MIB::sysName.0': '1.3.6.1.2.1.1.5.0',
};
const resolver = (name: string) =>
  names[name] !== undefined ? { oid: names[name] } : { message: `no MIB module read defines ${name}` };

describe('checkSnmpAddresses', () => {
  it('accepts OIDs, MIB names, column numbers and variables without a resolver', () => {
    const t = validTemplate();
    address(t, 0, 0).originAddress = 'SNMPv2-MIB::sysName.0';
    address(t, 0, 1).originAddress = 'sysUpTime.0';
    address(t, 0, 2).originAddress = '/{TEMPERATURE_OID}/';
    address(t, 1, 1).originAddress = '8';
    objectAt(t, 'datapointSets', 1, 'tableAddress').rootAddress = 'IF-MIB::ifTable';
    expect(semanticWarnings(t).filter((p) => p.code.includes('SNMP'))).toEqual([]);
  });

  it('refuses an address that is neither an OID nor a MIB name', () => {
    const t = validTemplate();
    address(t, 0, 0).originAddress = 'sysName 0';
    const [problem] = withCode(semanticWarnings(t), 'DT_ERR_SEM_SNMP_ADDRESS_MALFORMED');
    expect(problem).toMatchObject({
      severity: 'error',
      path: '/datapointSets/0/datapoints/0/addressConfig/originAddress',
    });
    expect(problem!.message).toContain("'sysName 0' is neither an OID nor a MIB name");
  });

  it('refuses a MIB name the resolver does not know, with its reason, in datapoints and table roots', () => {
    const t = validTemplate();
    address(t, 0, 0).originAddress = 'SNMPv2-MIB::sysName.0';
    address(t, 0, 1).originAddress = 'sysUpTme.0';
    objectAt(t, 'datapointSets', 1, 'tableAddress').rootAddress = 'IF-MIB::ifTabel';
    const problems = withCode(
      checkSemantics(documentFromValue(t, 't.json'), { oidNames: resolver }),
      'DT_ERR_SEM_SNMP_NAME_UNKNOWN',
    );
    expect(problems.map((p) => p.path)).toEqual([
      '/datapointSets/0/datapoints/1/addressConfig/originAddress',
      '/datapointSets/1/tableAddress/rootAddress',
    ]);
    expect(problems[0]!.message).toBe(
      "The SNMP address 'sysUpTme.0' cannot be resolved: no MIB module read defines sysUpTme.0.",
    );
  });

  it('ignores addresses of other drivers', () => {
    const t = validTemplate();
    address(t, 0, 0).originType = 'svc-ds-drv-modbus-tcp';
    address(t, 0, 0).originAddress = 'hr:40001';
    expect(withCode(semanticWarnings(t), 'DT_ERR_SEM_SNMP_ADDRESS_MALFORMED')).toEqual([]);
  });
});
