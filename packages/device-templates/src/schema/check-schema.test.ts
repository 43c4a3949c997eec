import { describe, expect, it } from 'vitest';
import type { LoadedDocument, SourceFormat } from '../loading/loaded-document.js';
import { documentFromValue } from '../loading/value-document.js';
import type { DocumentPath, Problem } from '../problem.js';
import { fromJsonPointer } from '../problem.js';
import { checkSchema } from './check-schema.js';
import { compareDocumentOrder } from './document-order.js';
import { schemaProblems } from './schema-problems.js';
import { at, evaluation, mutated } from './test-support/base-template.js';
import { invalidCases } from './test-support/compatibility-cases.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';

const check = (doc: unknown): Problem[] => checkSchema(documentFromValue(doc, 'case.json'));
const only = (doc: unknown): Problem => {
  const problems = check(doc);
  expect(problems).toHaveLength(1);
  return problems[0] as Problem;
};
const CPU = '/datapointSets/0/datapoints/0';

describe('checkSchema output for every rejected compatibility case', () => {
  const cases = invalidCases();

  it('never shows combinator noise or ajv wording', () => {
    for (const [what, doc] of cases) {
      for (const problem of check(doc)) {
        expect(problem.message, what).not.toMatch(/must match|anyOf|oneOf|"then"|must pass|must NOT|schema in/);
      }
    }
  });

  it('uses catalogue codes, JSON Pointer paths and one problem per (path, code)', () => {
    for (const [what, doc] of cases) {
      const problems = check(doc);
      const keys = problems.map((p) => `${p.path} ${p.code}`);
      expect(new Set(keys).size, what).toBe(keys.length);
      for (const p of problems) {
        expect(Object.keys(schemaProblems), what).toContain(p.code);
        expect(p.severity).toBe('error');
        expect(p.path === '' || p.path.startsWith('/'), what).toBe(true);
        expect(p.message.length, what).toBeGreaterThan(20);
      }
    }
  });

  it('reports in document order and the same way every time', () => {
    for (const [what, doc] of cases) {
      const first = check(doc);
      expect(check(structuredClone(doc)), what).toEqual(first);
      for (let i = 1; i < first.length; i++) {
        const before = fromJsonPointer((first[i - 1] as Problem).path);
        const after = fromJsonPointer((first[i] as Problem).path);
        expect(compareDocumentOrder(doc, toPath(doc, before), toPath(doc, after)), what).toBeLessThanOrEqual(0);
      }
    }
  });
});

function toPath(root: unknown, segments: readonly string[]): DocumentPath {
  let node = root;
  return segments.map((s) => {
    const segment = Array.isArray(node) ? Number(s) : s;
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined;
    return segment;
  });
}

describe('root messages', () => {
  it('explains a bad version with the MAJOR.MINOR.PATCH form', () => {
    const p = only(mutated((d) => (d['templateVersion'] = '1.2')));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_PATTERN', path: '/templateVersion', found: '1.2' });
    expect(p.message).toBe(
      'templateVersion "1.2" is not a version: expected MAJOR.MINOR.PATCH such as 1.4.2 (optional leading "v", ' +
        'pre-release after "-", build after "+")',
    );
  });

  it('suggests the intended key for a misspelt root key', () => {
    const p = only(mutated((d) => (d['templateID'] = 'x')));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_ADDITIONAL_PROPERTY',
      path: '/templateID',
      found: 'templateID',
      suggestion: 'templateId',
    });
    expect(p.message).toBe('unknown key "templateID" at the root; did you mean "templateId"?');
  });

  it('reports each missing required root key at its own path', () => {
    const problems = check(
      mutated((d) => {
        delete d['origin'];
        delete d['templateId'];
      }),
    );
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['DT_ERR_SCHEMA_REQUIRED', '/origin'],
      ['DT_ERR_SCHEMA_REQUIRED', '/templateId'],
    ]);
    expect(problems[0]?.message).toBe('the template is missing the required key "origin"');
  });

  it('states the real limit of an identifier and names the offending characters', () => {
    const long = only(mutated((d) => (objectAt(at.cpu(d), 'commonConfig').datapointId = 'x'.repeat(81))));
    expect(long).toMatchObject({ code: 'DT_ERR_SCHEMA_PATTERN', path: `${CPU}/commonConfig/datapointId` });
    expect(long.message).toContain('at most 80');
    const spaced = only(mutated((d) => (objectAt(at.cpu(d), 'addressConfig').originAddress = 'DB1,REAL 4')));
    expect(spaced.message).toContain('contains "," and a space, which are not allowed');
  });

  it('states text limits as a range', () => {
    const p = only(mutated((d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).text = 'x'.repeat(801))));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_MAX_LENGTH', allowed: '1 to 800 characters' });
    expect(p.message).toBe(
      'datapoint "cpuLoad" in set "system": alertConfig.evaluations[0].text has 801 characters; use 1 to 800 ' +
        'characters',
    );
  });

  it('reports a non-object document as one type problem at the root', () => {
    expect(only(42)).toMatchObject({ code: 'DT_ERR_SCHEMA_TYPE', path: '' });
  });
});

describe('datapoint combination messages', () => {
  it('gives one message naming both blocks when addressConfig and calcConfig are combined', () => {
    const p = only(mutated((d) => (at.cpu(d).calcConfig = { expression: '1' })));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_DATAPOINT_COMBINATION', path: CPU });
    expect(p.message).toContain('has both addressConfig and calcConfig');
    expect(p.found).toEqual(['commonConfig', 'addressConfig', 'alertConfig', 'calcConfig']);
  });

  it('lists the possible sources when a datapoint has none', () => {
    const p = only(mutated((d) => delete at.cpu(d).addressConfig));
    expect(p.code).toBe('DT_ERR_SCHEMA_DATAPOINT_COMBINATION');
    expect(p.message).toMatch(/no source.*addressConfig.*calcConfig.*defaultValueConfig/);
  });

  it('reports the errors inside addressConfig instead of the combination when the intent is clear', () => {
    const p = only(mutated((d) => delete objectAt(at.cpu(d), 'addressConfig').pollingGroup));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_REQUIRED', path: `${CPU}/addressConfig/pollingGroup` });
    expect(p.message).toBe(
      'addressConfig of datapoint "cpuLoad" in set "system" is missing the required key "pollingGroup"',
    );
  });

  it('adds that pollingGroup is needed even for subscriptions', () => {
    const p = only(
      mutated((d) => {
        objectAt(at.cpu(d), 'addressConfig').receiveMode = 'subscription';
        delete objectAt(at.cpu(d), 'addressConfig').pollingGroup;
      }),
    );
    expect(p.message).toContain('even when receiveMode is "subscription"');
  });

  it('names the extra blocks of a #TIMEPOINT datapoint in one message', () => {
    const p = only(
      mutated((d) => {
        at.timepoint(d).convConfig = { expression: 'x' };
        at.timepoint(d).alertConfig = { evaluations: [evaluation(601)] };
      }),
    );
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_TIMEPOINT_BLOCKS', path: '/datapointSets/1/datapoints/2' });
    expect(p.message).toContain('remove convConfig and alertConfig');
  });

  it('reports a #TIMEPOINT without addressConfig once, not also as a combination problem', () => {
    const p = only(mutated((d) => delete at.timepoint(d).addressConfig));
    expect(p.code).toBe('DT_ERR_SCHEMA_TIMEPOINT_BLOCKS');
    expect(p.message).toContain('add addressConfig');
  });

  it('rejects a non-object extra datapoint key and suggests the block that was meant', () => {
    const p = only(mutated((d) => (at.uptime(d).unitConfig = 'B')));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_ADDITIONAL_PROPERTY',
      path: '/datapointSets/0/datapoints/1/unitConfig',
      suggestion: 'unitsConfig',
    });
  });
});

describe('block rule messages', () => {
  it('names the severities of both bands when evaluations mix logs and alarms', () => {
    const p = only(mutated((d) => listAt(at.cpu(d), 'alertConfig', 'evaluations').push(evaluation(100))));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_SEVERITY_BAND', path: `${CPU}/alertConfig/evaluations` });
    expect(p.message).toContain('log evaluations (severity 100) and alarms (severity 401 and 601)');
  });

  it('reports a severity outside both bands at that severity', () => {
    const p = only(mutated((d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).severity = 1001)));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_SEVERITY_BAND',
      path: `${CPU}/alertConfig/evaluations/0/severity`,
      found: 1001,
    });
  });

  it('reports a repeated severity at the later evaluation', () => {
    const p = only(mutated((d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 1).severity = 401)));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_DUPLICATE',
      path: `${CPU}/alertConfig/evaluations/1/severity`,
      found: 401,
    });
  });

  it('reports a repeated datapointSetId at the later set', () => {
    const p = only(mutated((d) => (at.portsSet(d).datapointSetId = 'system')));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_DUPLICATE', path: '/datapointSets/1/datapointSetId' });
    expect(p.message).toBe(
      'datapointSets[0] and [1] both have datapointSetId "system"; each entry needs its own datapointSetId',
    );
  });

  it('explains the unitsConfig combinations', () => {
    const p = only(mutated((d) => (at.uptime(d).unitsConfig = { from: 'ms' })));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_UNITS_COMBINATION',
      path: '/datapointSets/0/datapoints/1/unitsConfig',
    });
    expect(p.message).toContain('neither "to"');
    const both = only(mutated((d) => (at.uptime(d).unitsConfig = { from: 'ms', to: 's', toBest: true, exclude: [] })));
    expect(both.message).toContain('combines "to" with both "toBest" and "exclude"');
  });

  it('explains the valueMap integer quirk and how to write the value', () => {
    const p = only(mutated((d) => (objectAt(at.admin(d), 'valueMapConfig').map = [{ key: 1, value: 2 }])));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_VALUE_MAP_INTEGER',
      path: '/datapointSets/0/datapoints/2/valueMapConfig/map/0/value',
      found: 2,
      suggestion: '"2"',
    });
    expect(p.message).toContain('write it as a string: "2"');
  });

  it('asks for value or rawValue in a defaultValueConfig', () => {
    const p = only(mutated((d) => (at.model(d).defaultValueConfig = { isDefault: true })));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_REQUIRED',
      path: '/datapointSets/0/datapoints/3/defaultValueConfig/value',
    });
    expect(p.message).toContain('needs "value" or "rawValue"');
  });

  it('requires tableAddress on a table set with one message', () => {
    const p = only(mutated((d) => delete at.portsSet(d).tableAddress));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_TABLE_ADDRESS_REQUIRED', path: '/datapointSets/1/tableAddress' });
    expect(p.message).toContain('is a tableDynamic set and needs tableAddress');
  });

  it('lists the allowed values of an enum and suggests the spelling that was meant', () => {
    const p = only(mutated((d) => (objectAt(at.cpu(d), 'addressConfig').originAccessType = 'readOnly')));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_ENUM', suggestion: 'read-only' });
    expect(p.message).toContain('use one of: read-only, write-only, read-write, not-accessible');
    const polling = only(mutated((d) => (objectAt(at.cpu(d), 'addressConfig').pollingGroup = '7s')));
    expect(polling.suggestion).toBeUndefined();
  });

  it('checks widget settings against the widget type and says which widget', () => {
    const p = only(mutated((d) => (objectAt(at.widget(d, 0), 'specificConfig').pageSize = 3)));
    expect(p).toMatchObject({
      code: 'DT_ERR_SCHEMA_ADDITIONAL_PROPERTY',
      path: '/representation/0/specificConfig/pageSize',
    });
    expect(p.message).toBe(
      'unknown key "pageSize" in specificConfig of representation[0] (a map widget); known keys: format',
    );
  });
});

/** A document whose positions encode what was asked: line = path length + 100, column 1 for keys. */
function recordingDocument(value: unknown, format: SourceFormat = 'json'): LoadedDocument {
  return {
    value,
    format,
    text: '',
    file: 'recorded.json',
    positionOf: (path: DocumentPath, which: 'value' | 'key' = 'value') => ({
      line: 100 + path.length,
      column: which === 'key' ? 1 : 2,
      offset: 0,
    }),
  };
}

describe('positions', () => {
  it('positions a missing key at the object that lacks it', () => {
    const [p] = checkSchema(
      recordingDocument(mutated((d) => delete objectAt(at.cpu(d), 'addressConfig').pollingGroup)),
    );
    expect(p).toMatchObject({ line: 105, column: 2 }); // datapointSets/0/datapoints/0/addressConfig
  });

  it('positions an unknown key at the key itself', () => {
    const [p] = checkSchema(recordingDocument(mutated((d) => (objectAt(at.cpu(d), 'addressConfig').timeout = 5))));
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_ADDITIONAL_PROPERTY', line: 106, column: 1 });
  });

  it('suggests quoting a number where YAML needs a string', () => {
    const [p] = checkSchema(
      recordingDocument(
        mutated((d) => (d['templateVersion'] = 1.2)),
        'yaml',
      ),
    );
    expect(p).toMatchObject({ code: 'DT_ERR_SCHEMA_TYPE', found: 1.2 });
    expect(p?.message).toBe('templateVersion must be a string, found the number 1.2; in YAML, put it in quotes: "1.2"');
  });
});
