import { readdirSync, readFileSync } from 'node:fs';
import jsYaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { DocumentPath } from '../problem.js';
import { loadDocument } from './load-document.js';
import type { LoadedDocument, SourceFormat } from './loaded-document.js';
import { placeOf } from './test-support/problem-of.js';
import { documentFromValue } from './value-document.js';

const load = (text: string, format: SourceFormat): LoadedDocument =>
  loadDocument(text, { format, file: `t.${format}` });

/** The position of `offset` in the string at `path`, as line and column. */
function at(document: LoadedDocument, path: DocumentPath, offset: number): { line: number; column: number } {
  const { line, column } = document.positionInString!(path, offset);
  return { line, column };
}

/** The place of the first `needle` written after `anchor` (both searched in the text itself). */
function placeAfter(text: string, anchor: string, needle: string): { line: number; column: number } {
  const from = text.indexOf(anchor);
  expect(from).toBeGreaterThanOrEqual(0);
  const offset = text.indexOf(needle, from + anchor.length);
  expect(offset).toBeGreaterThan(from);
  return placeOf(text.slice(0, offset) + '\u0000', '\u0000');
}

describe('positionInString in JSON', () => {
  it('maps an offset of an escape-free string to the column of that character', () => {
    const text = '{\n  "e": "datapoint.value > limit"\n}';
    const value = 'datapoint.value > limit';
    expect(at(load(text, 'json'), ['e'], value.indexOf('limit'))).toEqual(placeOf(text, 'limit'));
  });

  it('counts \\n, \\" and \\\\ as one character of the value and two of the text', () => {
    const text = String.raw`{"e": "a\n\"b\" \\ target"}`;
    const document = load(text, 'json');
    const value = (document.value as { e: string }).e;
    expect(value).toBe('a\n"b" \\ target');
    expect(at(document, ['e'], value.indexOf('target'))).toEqual(placeOf(text, 'target'));
    // An escaped character points at its backslash.
    expect(at(document, ['e'], 1)).toEqual(placeOf(text, String.raw`\n`));
  });

  it('counts a \\uXXXX escape as one character and a surrogate pair written as two escapes as two', () => {
    const text = String.raw`{"e": "\u00e9\ud83d\ude00 x", "f": "😀 y"}`;
    const document = load(text, 'json');
    expect((document.value as { e: string }).e).toBe('é😀 x');
    expect(at(document, ['e'], 4)).toEqual(placeOf(text, 'x'));
    expect(at(document, ['e'], 2)).toEqual(placeOf(text, String.raw`\ude00`));
    // A raw astral character is two UTF-16 units in the value and in the text alike.
    expect(at(document, ['f'], 3)).toEqual(placeOf(text, 'y'));
  });

  it('points just after the last character for offset = length, and clamps offsets outside', () => {
    const text = '{"e": "ab"}';
    const document = load(text, 'json');
    expect(at(document, ['e'], 2)).toEqual({ line: 1, column: text.indexOf('"}') + 1 });
    expect(at(document, ['e'], 99)).toEqual(at(document, ['e'], 2));
    expect(at(document, ['e'], -5)).toEqual(placeOf(text, 'ab'));
  });

  it('finds strings nested in arrays and objects, on later lines', () => {
    const text = JSON.stringify({ sets: [{ list: [{ expression: 'x', other: 'datapoint.valu' }] }] }, null, 2);
    expect(at(load(text, 'json'), ['sets', 0, 'list', 0, 'other'], 10)).toEqual(placeAfter(text, '"other"', 'valu'));
  });

  it('falls back to positionOf for paths that are not strings and never throws', () => {
    const text = '{"n": 5, "o": {"e": "x"}}';
    const document = load(text, 'json');
    expect(document.positionInString!(['n'], 0)).toEqual(document.positionOf(['n']));
    expect(document.positionInString!(['o'], 3)).toEqual(document.positionOf(['o']));
    expect(document.positionInString!(['missing', 'deeper'], 1)).toEqual(document.positionOf(['missing']));
    const odd = [[-1], [1.5], [null], [{}]] as unknown as DocumentPath[];
    for (const path of odd) expect(() => document.positionInString!(path, Number.NaN)).not.toThrow();
  });
});

describe('positionInString in YAML', () => {
  it('maps a plain scalar on one line directly', () => {
    const text = 'a:\n  expression: datapoint.value > limit   # a comment\n';
    expect(at(load(text, 'yaml'), ['a', 'expression'], 'datapoint.value > '.length)).toEqual(placeOf(text, 'limit'));
  });

  it('maps a plain scalar folded over two lines', () => {
    const text = 'e: datapoint.value >\n   limit\n';
    const document = load(text, 'yaml');
    expect(document.value).toEqual({ e: 'datapoint.value > limit' });
    expect(at(document, ['e'], 'datapoint.value > '.length)).toEqual(placeOf(text, 'limit'));
  });

  it("counts '' in a single-quoted scalar as one character", () => {
    const text = "e: 'it''s a target'\nf: 'datapoint.value === ''a'' && target'\n";
    const document = load(text, 'yaml');
    const value = (document.value as { f: string }).f;
    expect(at(document, ['f'], value.indexOf('target'))).toEqual(placeAfter(text, 'f:', 'target'));
    expect(at(document, ['e'], "it's a ".length)).toEqual(placeOf(text, 'target'));
  });

  it('decodes the escapes of a double-quoted scalar, \\U included', () => {
    const text = 'e: "\\t\\x41\\u00e9\\U0001F600\\"\\\\ target"\n';
    const document = load(text, 'yaml');
    const value = (document.value as { e: string }).e;
    expect(value).toBe('\tAé😀"\\ target');
    expect(at(document, ['e'], value.indexOf('target'))).toEqual(placeOf(text, 'target'));
    expect(at(document, ['e'], 4)).toEqual(placeOf(text, '\\U')); // the second unit of the pair
  });

  it('follows a double-quoted scalar folded and continued over lines', () => {
    const text = 'e: "datapoint.value >\n    10 &&\\\n    target"\n';
    const document = load(text, 'yaml');
    const value = (document.value as { e: string }).e;
    expect(value).toBe('datapoint.value > 10 &&target');
    expect(at(document, ['e'], value.indexOf('target'))).toEqual(placeOf(text, 'target'));
  });

  it('maps a literal block scalar line by line', () => {
    const text = 'x:\n  e: |\n    datapoint.value > 3 &&\n      target < 4\n  f: 1\n';
    const document = load(text, 'yaml');
    const value = (document.value as { x: { e: string } }).x.e;
    expect(at(document, ['x', 'e'], value.indexOf('target'))).toEqual(placeOf(text, 'target'));
    expect(at(document, ['x', 'e'], value.indexOf('4'))).toEqual(placeOf(text, '4'));
  });

  it('maps a folded block scalar, with its folded breaks and more-indented lines', () => {
    const text = 'e: >-\n  datapoint.value\n  > 3\n\n    kept\n  target\n';
    const document = load(text, 'yaml');
    const value = (document.value as { e: string }).e;
    expect(value).toBe('datapoint.value > 3\n\n  kept\ntarget');
    expect(at(document, ['e'], value.indexOf('target'))).toEqual(placeOf(text, 'target'));
    expect(at(document, ['e'], value.indexOf('kept'))).toEqual(placeOf(text, 'kept'));
  });

  it('falls back to the value start for a block scalar with an indentation digit and for an alias', () => {
    const text = 'e: |2\n    target\nf: &a target2\ng: *a\n';
    const document = load(text, 'yaml');
    expect(document.positionInString!(['e'], 2)).toEqual(document.positionOf(['e']));
    expect(document.positionOf(['e'])).toMatchObject(placeOf(text, '|2'));
    expect(document.positionInString!(['g'], 3)).toEqual(document.positionOf(['g']));
  });

  it('skips tags and anchors before the scalar', () => {
    const text = 'e: !!str &x "a target"\n';
    expect(at(load(text, 'yaml'), ['e'], 2)).toEqual(placeOf(text, 'target'));
  });

  it('works in flow collections and with CRLF line breaks', () => {
    const text = 'l:\r\n  - { symbol: s, expression: "datapoint.value >\r\n      target" }\r\n';
    const document = load(text, 'yaml');
    const value = (document.value as { l: { expression: string }[] }).l[0]!.expression;
    expect(at(document, ['l', 0, 'expression'], value.indexOf('target'))).toEqual(placeOf(text, 'target'));
  });
});

/**
 * Checks every character of every string of `document`: it must map to the same character in
 * the text, or to an escape or a line break that stands for it, in order. Returns how many
 * strings fell back to their start.
 */
function expectEveryCharacterMapped(document: LoadedDocument): number {
  const text = document.text;
  let fallbacks = 0;
  const wrong: string[] = [];
  const visit = (node: unknown, path: (string | number)[]): void => {
    if (Array.isArray(node)) node.forEach((child, i) => visit(child, [...path, i]));
    else if (typeof node === 'object' && node !== null)
      for (const [key, child] of Object.entries(node)) visit(child, [...path, key]);
    else if (typeof node === 'string') {
      const start = document.positionOf(path).offset;
      let previous = -1;
      for (let k = 0; k < node.length; k += 1) {
        const offset = document.positionInString!(path, k).offset;
        if (k > 0 && offset === start) {
          fallbacks += 1;
          return;
        }
        const written = text[offset];
        const stands =
          written === node[k] ||
          written === '\\' ||
          written === '\n' ||
          written === '\r' ||
          (written === "'" && node[k] === "'");
        if (!stands || offset < previous)
          wrong.push(`${JSON.stringify(node)}[${k}] at ${offset}: ${JSON.stringify(written)}`);
        previous = offset;
      }
    }
  };
  visit(document.value, []);
  expect(wrong).toEqual([]);
  return fallbacks;
}

describe('positionInString on whole documents', () => {
  // Every style js-yaml chooses (plain, quoted, folded and literal blocks) for awkward strings.
  const values = [
    'datapoint.value > 80',
    "it's a 'quoted' text",
    'tab\there, "double" and \\ backslash',
    'line one\nline two\n\n  indented line\nlast',
    'x '.repeat(60) + 'long line folded by the dumper',
    'é ü 😀 astral',
    'trailing spaces   \nnext',
    ': starts with an indicator',
    '',
  ];
  it.each(['plain', 'forced quotes', 'double quotes'] as const)(
    'maps every character of awkward strings written by js-yaml (%s)',
    (mode) => {
      const text = jsYaml.dump(
        { values },
        { lineWidth: 40, forceQuotes: mode !== 'plain', quotingType: mode === 'double quotes' ? '"' : "'" },
      );
      expect(expectEveryCharacterMapped(load(text, 'yaml'))).toBe(0);
    },
  );

  it('maps every character of the same strings written as JSON', () => {
    expect(expectEveryCharacterMapped(load(JSON.stringify({ values }, null, 2), 'json'))).toBe(0);
  });

  const examples = new URL('../../examples/', import.meta.url);
  it.each(readdirSync(examples).filter((name) => /\.ndst\.(json|ya?ml)$/.test(name)))(
    'maps every character of every string of the example %s',
    (name) => {
      const text = readFileSync(new URL(name, examples), 'utf8');
      expect(expectEveryCharacterMapped(load(text, name.endsWith('.json') ? 'json' : 'yaml'))).toBe(0);
    },
  );
});

describe('positionInString without text', () => {
  it('answers 0:0 for a document built from a value', () => {
    expect(documentFromValue({ e: 'abc' }, 'lib').positionInString!(['e'], 2)).toEqual({
      line: 0,
      column: 0,
      offset: 0,
    });
  });
});
