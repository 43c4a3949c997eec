// Positions of semantic warnings in real JSON and YAML text, through the positioned loader.
// Expected places are found by searching the text itself, never copied from an output.
import jsYaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../loading/load-document.js';
import type { Problem } from '../problem.js';
import { checkSemantics } from './check-semantics.js';
import { validTemplate, withCode, type Fixture, placeOf } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

function mutated(): Fixture {
  const t = validTemplate();
  t.templateVersion = '1.2.3.4';
  objectAt(t, 'datapointSets', 0, 'datapoints', 0).unitConfig = { from: 'C', to: 'F' };
  objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'unitsConfig').from = 'kw';
  objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'unitsConfig').to = 'W';
  objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'commonConfig').datapointId = 'sysName';
  return t;
}

/** The text and its warnings. */
function checked(format: 'json' | 'yaml'): { text: string; problems: Problem[] } {
  const text = format === 'json' ? JSON.stringify(mutated(), null, 2) : jsYaml.dump(mutated(), { lineWidth: 200 });
  return { text, problems: checkSemantics(loadDocument(text, { format, file: `t.ndst.${format}` })) };
}

describe('semantic warning positions', () => {
  describe('in JSON', () => {
    it('points an unknown-key warning at the key', () => {
      const { text, problems } = checked('json');
      const [problem] = withCode(problems, 'DT_WARN_QUIRK_DATAPOINT_KEY');
      expect(problem).toMatchObject(placeOf(text, '"unitConfig"'));
    });

    it('points a value warning at the value', () => {
      const { text, problems } = checked('json');
      const [version] = withCode(problems, 'DT_WARN_QUIRK_VERSION_NOT_SEMVER');
      expect(version).toMatchObject(placeOf(text, '"1.2.3.4"'));
      const [unit] = withCode(problems, 'DT_WARN_SEM_UNIT_UNKNOWN');
      expect(unit).toMatchObject(placeOf(text, '"kw"'));
    });

    it('names the line and column of the first datapoint in a duplicate-id warning', () => {
      const { text, problems } = checked('json');
      const [problem] = withCode(problems, 'DT_WARN_SEM_DATAPOINT_ID_DUPLICATE');
      const key = '"datapointId": ';
      const atValue = (p: { line: number; column: number }) => ({ line: p.line, column: p.column + key.length });
      const first = atValue(placeOf(text, `${key}"sysName"`, 1));
      expect(problem).toMatchObject(atValue(placeOf(text, `${key}"sysName"`, 2)));
      expect(problem!.message).toContain(`line ${first.line}, column ${first.column}`);
    });
  });

  describe('in YAML', () => {
    it('points an unknown-key warning at the key', () => {
      const { text, problems } = checked('yaml');
      const [problem] = withCode(problems, 'DT_WARN_QUIRK_DATAPOINT_KEY');
      expect(problem).toMatchObject(placeOf(text, 'unitConfig:'));
    });

    it('points a unit warning at the unit', () => {
      const { text, problems } = checked('yaml');
      const [problem] = withCode(problems, 'DT_WARN_SEM_UNIT_UNKNOWN');
      const key = placeOf(text, 'from: kw');
      expect(problem).toMatchObject({ line: key.line, column: key.column + 'from: '.length });
    });
  });
});
