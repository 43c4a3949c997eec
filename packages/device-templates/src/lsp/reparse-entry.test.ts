import { isDeepStrictEqual } from 'node:util';
import jsYaml from 'js-yaml';
import { randomInt, randomItem, seededRandom, type RandomSource } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { generateLargeTemplate } from '../../../../bench/generate-large-template.js';
import { loadDocument } from '../loading/load-document.js';
import type { LoadedDocument } from '../loading/loaded-document.js';
import { validateSource } from '../validate.js';
import { IncrementalValidator } from './incremental-validator.js';
import type { TextEdit } from './patch-document.js';
import { reparseEntry } from './reparse-entry.js';

type Format = 'json' | 'yaml';
const yamlOf = (datapoints: number) => jsYaml.dump(generateLargeTemplate(datapoints), { lineWidth: 120, noRefs: true });
const textOf = (datapoints: number, format: Format) =>
  format === 'yaml' ? yamlOf(datapoints) : JSON.stringify(generateLargeTemplate(datapoints), null, 2);
const apply = (text: string, edit: TextEdit) => text.slice(0, edit.start) + edit.text + text.slice(edit.end);

/** Characters that change the structure or meaning, and ordinary ones. */
const CHARACTERS: Record<Format, string[]> = {
  yaml: [...'ab1 -:#"\'[{}&*|>!%\t', '\n', '\n  ', '\n      - ', ': x', '  '],
  json: [...'ab1 -:,"\\[]{}\t', '\n', ', "x": 1', '"unit": "kW", ', '{}, ', '  '],
};

/** One random edit of `text` near `near`, mostly of whole lines: what restructuring a template does. */
function randomEdit(random: RandomSource, text: string, near: number, format: Format): TextEdit {
  const at = Math.max(0, Math.min(text.length - 1, near + randomInt(random, 400) - 200));
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at) + 1;
  const line = text.slice(lineStart, lineEnd);
  switch (randomInt(random, 8)) {
    case 0:
      return { start: at, end: at, text: randomItem(random, CHARACTERS[format]) };
    case 1:
      return { start: at, end: Math.min(text.length, at + 1 + randomInt(random, 12)), text: '' };
    case 2: // the line twice
      return { start: lineStart, end: lineStart, text: line };
    case 3: // the line removed
      return { start: lineStart, end: lineEnd, text: '' };
    case 4: // a key, at some indentation
      return {
        start: lineStart,
        end: lineStart,
        text: `${' '.repeat(2 * randomInt(random, 7))}${format === 'yaml' ? 'unit: kW' : '"unit": "kW",'}\n`,
      };
    case 5: // the line indented or dedented
      return randomInt(random, 2) === 0 || !line.startsWith('  ')
        ? { start: lineStart, end: lineStart, text: '  ' }
        : { start: lineStart, end: lineStart + 2, text: '' };
    case 6: {
      // a datapoint copied after itself
      const marker = format === 'yaml' ? '\n      - ' : '\n        {\n';
      const entry = text.lastIndexOf(marker, at);
      const next = text.indexOf(marker, at);
      if (entry < 0 || next < 0) return { start: at, end: at, text: 'x' };
      return { start: next + 1, end: next + 1, text: text.slice(entry + 1, next + 1) };
    }
    default: // a value retyped
      return { start: at, end: Math.min(text.length, at + 1), text: randomItem(random, [...'xY9 ']) };
  }
}

/** The one edit that turns `from` into `to`: what lies between their common start and common end. */
function differingSpan(from: string, to: string): TextEdit {
  let start = 0;
  while (start < from.length && start < to.length && from[start] === to[start]) start++;
  let end = 0;
  while (
    end < from.length - start &&
    end < to.length - start &&
    from[from.length - 1 - end] === to[to.length - 1 - end]
  )
    end++;
  return { start, end: from.length - end, text: to.slice(start, to.length - end) };
}

/** Some paths of `value`: all of the subtree at each of a few random paths' ancestors. */
function samplePaths(random: RandomSource, value: unknown, count: number): (string | number)[][] {
  const paths: (string | number)[][] = [];
  for (let n = 0; n < count; n++) {
    const path: (string | number)[] = [];
    let node = value;
    while (node !== null && typeof node === 'object') {
      paths.push([...path]);
      const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
      if (keys.length === 0) break;
      const key = randomItem(random, keys);
      path.push(key);
      node = (node as Record<string | number, unknown>)[key];
    }
    paths.push(path, [...path, 'missing'], [...path.slice(0, -1), 9999]);
  }
  return paths;
}

/** The positions `incremental` gives where `full` gives them, over sample paths (keys, values, inside strings). */
function expectSamePositions(random: RandomSource, incremental: LoadedDocument, full: LoadedDocument): void {
  for (const path of samplePaths(random, full.value, 12)) {
    expect(incremental.positionOf(path), `value at ${JSON.stringify(path)}`).toEqual(full.positionOf(path));
    expect(incremental.positionOf(path, 'key'), `key at ${JSON.stringify(path)}`).toEqual(full.positionOf(path, 'key'));
    const offset = randomInt(random, 12);
    expect(incremental.positionInString?.(path, offset), `string at ${JSON.stringify(path)}`).toEqual(
      full.positionInString?.(path, offset),
    );
  }
}

/**
 * Random edits, 1 to 3 between validations, each validation compared with a full one: problems,
 * value and positions. Returns how many validations read entries again instead of loading.
 */
async function compareOverEdits(
  format: Format,
  seed: number,
  datapoints: number,
  rounds: number,
): Promise<{ reparsed: number; loaded: number }> {
  const name = `large-${datapoints}.ndst.${format}`;
  let text = textOf(datapoints, format);
  const random = seededRandom(seed);
  const validator = new IncrementalValidator(name, format);
  validator.validate(text);
  let loadable = text;
  let reparsed = 0;
  let loaded = 0;
  for (let round = 0; round < rounds; round++) {
    // Lets the test runner's messages through between rounds: a run this long must not block it.
    await new Promise((resolve) => setImmediate(resolve));
    // A burst of edits in one place, as typing makes them.
    const near = randomInt(random, text.length);
    for (let n = 1 + randomInt(random, 3); n > 0; n--) {
      const edit = randomEdit(random, text, near, format);
      validator.record(edit);
      text = apply(text, edit);
    }
    const incremental = validator.validate(text);
    const full = validateSource(text, { file: name, format });
    expect({ errors: incremental.errors, warnings: incremental.warnings }).toEqual({
      errors: full.errors,
      warnings: full.warnings,
    });
    expect(incremental.document === undefined).toBe(full.document === undefined);
    if (incremental.document !== undefined && full.document !== undefined) {
      expect(incremental.document.text).toBe(text);
      expect(isDeepStrictEqual(incremental.document.value, full.document.value)).toBe(true);
      expectSamePositions(random, incremental.document, full.document);
      loadable = text;
      if (incremental.patched) reparsed++;
      else loaded++;
    } else {
      // Back to the last text that loads, as an editor's undo does: one change of the differing span.
      const undo = differingSpan(text, loadable);
      validator.record(undo);
      text = apply(text, undo);
    }
  }
  return { reparsed, loaded };
}

/** Each edit of `text`, read again by `reparseEntry`, gives the value and positions a full load gives. */
function expectReparsedAsLoaded(text: string, format: Format, edits: readonly TextEdit[]): void {
  const document = loadDocument(text, { format });
  for (const edit of edits) {
    const after = apply(text, edit);
    const reparsed = reparseEntry(document, edit, after);
    const full = loadDocument(after, { format });
    expect(reparsed?.value).toEqual(full.value);
    expectSamePositions(seededRandom(1), reparsed as LoadedDocument, full);
  }
}

describe('reparseEntry', () => {
  it.each(['yaml', 'json'] as const)(
    'gives what a full validation gives, over random edits of a 600-datapoint %s template',
    async (format) => {
      const { reparsed, loaded } = await compareOverEdits(format, 16, 600, 80);
      // Edits in one place stay inside one entry (the validator reads again what a burst changed).
      expect(reparsed).toBeGreaterThan(2 * loaded);
    },
    120_000,
  );

  it.each(['yaml', 'json'] as const)(
    'gives what a full validation gives, over random edits of the 5,000-datapoint %s template',
    async (format) => {
      const { reparsed } = await compareOverEdits(format, 5000, 5000, 12);
      expect(reparsed).toBeGreaterThan(0);
    },
    120_000,
  );

  it('reads one datapoint again for a key added, a line removed and a datapoint copied', () => {
    const text = yamlOf(30);
    const second = text.indexOf('      - commonConfig:', text.indexOf('dp_0_1') - 60);
    const third = text.indexOf('      - commonConfig:', second + 1);
    const keyLine = text.indexOf('          dataType:', second);
    const edits: TextEdit[] = [
      { start: keyLine, end: keyLine, text: '          unit: kW\n' },
      { start: keyLine, end: text.indexOf('\n', keyLine) + 1, text: '' },
      { start: third - 1, end: third - 1, text: `\n${text.slice(second, third - 1)}` },
    ];
    expectReparsedAsLoaded(text, 'yaml', edits);
  });

  it('reads one JSON datapoint again for a key added, and its set for a datapoint copied', () => {
    const text = textOf(30, 'json');
    const second = text.lastIndexOf('\n        {\n', text.indexOf('"dp_0_1"')) + 1;
    const third = text.indexOf('\n        {\n', second) + 1;
    const keyLine = text.indexOf('            "dataType"', second);
    const edits: TextEdit[] = [
      { start: keyLine, end: keyLine, text: '            "unit": "kW",\n' },
      { start: third, end: third, text: text.slice(second, third) },
    ];
    expectReparsedAsLoaded(text, 'json', edits);
  });

  it('declines an edit that moves a line to the left of its entry, or the entry itself', () => {
    const text = yamlOf(30);
    const document = loadDocument(text, { format: 'yaml' });
    const entry = text.indexOf('      - commonConfig:', text.indexOf('dp_0_1') - 60);
    const keyLine = text.indexOf('          dataType:', entry);
    for (const edit of [
      { start: keyLine, end: keyLine + 8, text: '' }, // `  dataType:`: left of the entry's dash
      { start: entry, end: entry + 2, text: '' }, // the dash moved left
      { start: keyLine, end: keyLine, text: '      foo: 1\n' }, // a key at the dash's column
    ]) {
      expect(reparseEntry(document, edit, apply(text, edit))).toBeUndefined();
    }
  });
});
