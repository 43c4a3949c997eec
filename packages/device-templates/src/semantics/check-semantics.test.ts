import { describe, expect, it } from 'vitest';
import { problemCatalogue } from '../errors.js';
import { documentFromValue } from '../loading/value-document.js';
import { checkSemantics } from './check-semantics.js';
import { semanticProblems } from './semantic-problems.js';
import { semanticWarnings, validTemplate, type Fixture } from './test-support/semantic-fixtures.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';

describe('checkSemantics', () => {
  it('reports nothing for a consistent template', () => {
    expect(semanticWarnings(validTemplate())).toEqual([]);
  });

  it('reports only warnings whose codes are in the catalogue, with a JSON Pointer and a message', () => {
    const t = validTemplate();
    t.templateVersion = '1.2.3.4';
    objectAt(t, 'datapointSets', 0, 'datapoints', 0).unitConfig = { from: 'kw' };
    objectAt(t, 'datapointSets', 0, 'datapoints', 1, 'unitsConfig').from = 'kw';
    const problems = semanticWarnings(t);
    expect(problems.length).toBeGreaterThanOrEqual(3);
    for (const p of problems) {
      expect(problemCatalogue[p.code]).toBeDefined();
      expect(p.severity).toBe('warning');
      expect(p.path).toMatch(/^(\/.*)?$/);
      expect(p.message.length).toBeGreaterThan(20);
    }
  });

  it('gives DT_WARN_SEM_ and DT_WARN_QUIRK_ codes warning severity and DT_ERR_SEM_ codes error severity', () => {
    for (const [code, definition] of Object.entries(semanticProblems)) {
      expect(code).toMatch(/^DT_(WARN_SEM|WARN_QUIRK|ERR_SEM)_[A-Z0-9_]+$/);
      expect(definition.severity).toBe(code.startsWith('DT_ERR_') ? 'error' : 'warning');
      expect(definition.title.length).toBeGreaterThan(10);
    }
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'template'],
    ['an array', [1, 2]],
    ['an empty object', {}],
    ['sets of the wrong type', { datapointSets: 'x', originTypes: 3, representation: {} }],
    ['sets holding scalars', { datapointSets: [1, null, 'x', [], { datapoints: [null, 3, { commonConfig: 5 }] }] }],
  ])('never throws on %s', (_name, value) => {
    expect(() => checkSemantics(documentFromValue(value, 'x.json'))).not.toThrow();
  });

  it('never throws when any node of a valid template is replaced by a value of another type', () => {
    const replacements: unknown[] = [null, 7, 'x', [null], { a: 1 }];
    const paths: (string | number)[][] = [];
    const collect = (node: unknown, path: (string | number)[]) => {
      paths.push(path);
      if (Array.isArray(node)) node.forEach((child, i) => collect(child, [...path, i]));
      else if (node !== null && typeof node === 'object')
        for (const [k, v] of Object.entries(node)) collect(v, [...path, k]);
    };
    collect(validTemplate(), []);
    let runs = 0;
    for (const path of paths) {
      if (path.length === 0) continue;
      for (const replacement of replacements) {
        const t: Fixture = validTemplate();
        const parentPath = path.slice(0, -1);
        const last = path[path.length - 1]!;
        if (typeof last === 'number') listAt(t, ...parentPath)[last] = replacement;
        else objectAt(t, ...parentPath)[last] = replacement;
        expect(() => checkSemantics(documentFromValue(t, 'x.json'))).not.toThrow();
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(1000);
  });
});
