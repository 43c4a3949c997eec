import yaml from 'js-yaml';
import { seededRandom } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { DocumentLoadError } from './document-load-error.js';
import { loadDocument } from './load-document.js';

/**
 * A value with the shapes and string styles templates have (js-yaml dumps long text folded, multi-line text as
 * blocks).
 */
function sampleTemplate(): unknown {
  const datapoints = Array.from({ length: 6 }, (_, i) => ({
    commonConfig: {
      datapointId: `dp_${i}`,
      alias: i % 2 === 0 ? `Datapoint ${i}` : `Datapoint: #${i}`,
      description: i === 3 ? 'line one\nline two\n' : 'A long description '.repeat(i + 1).trim(),
    },
    addressConfig: {
      originAddress: String(40_001 + i),
      register: 40_001 + i,
      scale: i / 4,
      signed: i % 3 === 0,
      unit: null,
    },
    alertConfig: {
      evaluations: [{ expressions: [{ symbol: 'x', expression: `dp_${i} > ${i}` }], severity: i, tags: [], extra: {} }],
    },
    matrix: [[i, i + 1], [['deep', `'quoted' ${i}`]]],
  }));
  return {
    templateId: 'cross-check',
    'key with spaces': 'yes',
    '123': 'numeric key',
    datapointSets: [{ datapointSetId: 'main', datapoints }],
  };
}

/** Every path in a JSON value, with the value there, root first. */
function* walk(value: unknown, path: (string | number)[] = []): Generator<[(string | number)[], unknown]> {
  yield [path, value];
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* walk(item, [...path, i]);
  else if (value !== null && typeof value === 'object')
    for (const [k, item] of Object.entries(value)) yield* walk(item, [...path, k]);
}

describe('positions cross-checked against the text', () => {
  const value = sampleTemplate();

  it('JSON: every value and key is found where its serialization starts', () => {
    const text = JSON.stringify(value, null, 2);
    const document = loadDocument(text, { format: 'json' });
    let checked = 0;
    for (const [path, item] of walk(value)) {
      const at = document.positionOf(path).offset;
      const written =
        item !== null && typeof item === 'object' ? (Array.isArray(item) ? '[' : '{') : JSON.stringify(item);
      expect(text.startsWith(written, at), `value at /${path.join('/')}`).toBe(true);
      const last = path[path.length - 1];
      if (typeof last === 'string')
        expect(text.startsWith(JSON.stringify(last), document.positionOf(path, 'key').offset)).toBe(true);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(150);
  });

  for (const [style, options] of [
    ['block', {}],
    ['flow below level 3', { flowLevel: 3 }],
    ['CRLF', { lineWidth: 40 }],
  ] as const) {
    it(`YAML (${style}): every scalar and key is found where it is written`, () => {
      let text = yaml.dump(value, options);
      if (style === 'CRLF') text = text.replace(/\n/g, '\r\n');
      const document = loadDocument(text, { format: 'yaml' });
      expect(document.value).toEqual(value);
      for (const [path, item] of walk(value)) {
        const at = document.positionOf(path).offset;
        const here = text.slice(at, at + 40);
        const where = `/${path.join('/')} at ${JSON.stringify(here)}`;
        if (typeof item === 'string') {
          expect(/^['"|>]/.test(here) || here.startsWith(item.slice(0, 8)), where).toBe(true);
        } else if (item === null || typeof item !== 'object') {
          expect(here.startsWith(String(item)), where).toBe(true);
        } else if (path.length > 0) {
          // A collection starts with a flow bracket, a block entry or the first key.
          const first = Array.isArray(item) ? '- ' : `${Object.keys(item)[0]}`;
          expect(
            here.startsWith(Array.isArray(item) ? '[' : '{') || here.startsWith(first) || here.startsWith(`'${first}`),
            where,
          ).toBe(true);
        }
        const last = path[path.length - 1];
        if (typeof last === 'string') {
          const key = text.slice(document.positionOf(path, 'key').offset);
          expect(
            key.startsWith(last) || key.startsWith(`'${last}'`) || key.startsWith(`"${last}"`),
            `key ${where}`,
          ).toBe(true);
        }
      }
    });
  }
});

describe('robustness', () => {
  const ALPHABET = [
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    "'",
    ' ',
    '\n',
    '\r',
    '\t',
    '-',
    '#',
    '&a',
    '*a',
    '!x',
    '|',
    '>',
    '?',
    '1',
    'x',
    '\\',
    '<<',
    'é',
    '\u0000',
    '---',
  ];

  it.each(['json', 'yaml'] as const)(
    'never throws anything but DocumentLoadError on mutated %s, and positionOf never throws',
    (format) => {
      const next = seededRandom(format === 'json' ? 7 : 11);
      const base = format === 'json' ? JSON.stringify(sampleTemplate()) : yaml.dump(sampleTemplate(), { flowLevel: 4 });
      let loaded = 0;
      for (let round = 0; round < 300; round += 1) {
        let text = base;
        for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits -= 1) {
          const at = Math.floor(next() * text.length);
          const cut = Math.floor(next() * 4);
          text = text.slice(0, at) + (ALPHABET[Math.floor(next() * ALPHABET.length)] as string) + text.slice(at + cut);
        }
        try {
          const document = loadDocument(text, { format });
          loaded += 1;
          for (const [path] of walk(document.value)) {
            const position = document.positionOf(path, next() < 0.5 ? 'value' : 'key');
            expect(position.line).toBeGreaterThanOrEqual(1);
            expect(position.offset).toBeLessThanOrEqual(text.length);
          }
        } catch (error) {
          if (!(error instanceof DocumentLoadError)) throw error;
          expect(error.problem.line).toBeGreaterThanOrEqual(1);
          expect(error.problem.code).toMatch(/^DT_ERR_LOAD_/);
        }
      }
      expect(loaded).toBeGreaterThan(0);
    },
  );
});
