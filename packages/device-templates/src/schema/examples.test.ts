import { readdirSync, readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { documentFromValue } from '../loading/value-document.js';
import { checkSchema } from './check-schema.js';
import { validateSource } from '../validate.js';

// The example templates shipped in packages/device-templates/examples/, one per driver.
const EXAMPLES = new URL('../../examples/', import.meta.url);
const files = readdirSync(EXAMPLES)
  .filter((name) => /\.ndst\.(json|ya?ml)$/.test(name))
  .sort();

function parse(name: string): unknown {
  const text = readFileSync(new URL(name, EXAMPLES), 'utf8');
  return name.endsWith('.json') ? JSON.parse(text) : load(text);
}

describe('example templates', () => {
  it('cover every driver of the starter snippets, in both YAML and JSON', () => {
    const drivers = new Set<string>();
    for (const name of files) {
      const doc = parse(name) as { originTypes?: { originType: string }[] };
      for (const entry of doc.originTypes ?? []) drivers.add(entry.originType);
    }
    expect([...drivers].sort()).toEqual([
      'svc-ds-drv-icmp',
      'svc-ds-drv-modbus-tcp',
      'svc-ds-drv-mqtt',
      'svc-ds-drv-pnio',
      'svc-ds-drv-s7',
      'svc-ds-drv-snmp',
    ]);
    expect(files.some((f) => f.endsWith('.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('.yaml'))).toBe(true);
  });

  it.each(files)('%s passes the schema', (name) => {
    expect(checkSchema(documentFromValue(parse(name), name))).toEqual([]);
  });

  // The service seeds these as demo data: none may teach a literal secret (DT_WARN_SEM_SECRET_LITERAL).
  it.each(files)('%s validates with no errors or warnings', (name) => {
    const result = validateSource(readFileSync(new URL(name, EXAMPLES)), { file: name });
    expect([...result.errors, ...result.warnings]).toEqual([]);
  });

  it('include an SNMP ifTable as a tableDynamic set and a map set with alarms', () => {
    const snmp = parse('snmp-switch.ndst.yaml') as {
      datapointSets: {
        datapointSetType: string;
        tableAddress?: { rootAddress?: string };
        datapoints: { alertConfig?: { evaluations: { severity: number }[] } }[];
      }[];
    };
    expect(
      snmp.datapointSets.some(
        (s) => s.datapointSetType === 'tableDynamic' && s.tableAddress?.rootAddress === '1.3.6.1.2.1.2.2',
      ),
    ).toBe(true);
    const alarms = snmp.datapointSets
      .filter((s) => s.datapointSetType === 'map')
      .flatMap((s) => s.datapoints.flatMap((d) => d.alertConfig?.evaluations ?? []))
      .filter((e) => e.severity > 200);
    expect(alarms.length).toBeGreaterThan(0);
  });
});
