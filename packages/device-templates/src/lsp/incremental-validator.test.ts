import { readdirSync, readFileSync } from 'node:fs';
import { randomInt, randomItem, seededRandom } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { validateSource } from '../validate.js';
import { IncrementalValidator } from './incremental-validator.js';

const examples = new URL('../../examples/', import.meta.url);
const names = readdirSync(examples).filter((name) => /\.ndst\.(json|ya?ml)$/.test(name));
// Mostly what typing in a value writes, sometimes what changes the structure or needs escaping.
const CHARACTERS = [...'aaaaeeeiiZZ__  11..-/é', ':', '#', '"', "'", '\\', '{', '\n', '\t', 'true'];

describe('IncrementalValidator', () => {
  it.each(names)('gives what validateSource gives after random edits of %s', (name) => {
    let text = readFileSync(new URL(name, examples), 'utf8');
    const format = name.endsWith('.json') ? 'json' : 'yaml';
    const validator = new IncrementalValidator(name, format);
    validator.validate(text);
    const random = seededRandom(name.length * 7919);
    // Edits land mostly on letters: inside values, keys and comments alike.
    const letters = [...text.matchAll(/[A-Za-z]/g)].map((m) => m.index);
    let patched = 0;
    let loadable = text;
    const rounds = 150;
    for (let round = 0; round < rounds; round++) {
      for (let n = 1 + randomInt(random, 2); n > 0; n--) {
        const at = Math.min(randomItem(random, letters), text.length);
        const kind = randomInt(random, 3);
        const edit = {
          start: at,
          end: kind === 0 ? at : Math.min(at + 1, text.length),
          text: kind === 1 ? '' : randomItem(random, CHARACTERS),
        };
        validator.record(edit);
        text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
      }
      const incremental = validator.validate(text);
      const full = validateSource(text, { file: name, format });
      expect({ errors: incremental.errors, warnings: incremental.warnings }).toEqual({
        errors: full.errors,
        warnings: full.warnings,
      });
      expect(incremental.document?.value).toEqual(full.document?.value);
      if (incremental.patched) patched++;
      if (full.document !== undefined) loadable = text;
      else if (randomInt(random, 4) === 0) {
        // Back to the last text that loads, as an editor's undo would, so that edits can patch again.
        validator.record(undefined);
        text = loadable;
      }
    }
    expect(patched).toBeGreaterThan(0);
  });

  it.each(names)('patches, without loading, each character typed into a value of %s', (name) => {
    let text = readFileSync(new URL(name, examples), 'utf8');
    const format = name.endsWith('.json') ? 'json' : 'yaml';
    const validator = new IncrementalValidator(name, format);
    validator.validate(text);
    // The end of the template's description, a line that holds more after it in JSON (a comma).
    const match = /^\s*"?description"?: "?[^\n"]*/m.exec(text);
    let at = (match?.index ?? 0) + (match?.[0].length ?? 0);
    // No space: a YAML plain scalar's trailing space is not part of its value, so that edit loads in full.
    for (const character of '_and_more') {
      validator.record({ start: at, end: at, text: character });
      text = text.slice(0, at) + character + text.slice(at);
      at++;
      const incremental = validator.validate(text);
      expect(incremental.patched).toBe(true);
      expect(incremental.errors).toEqual(validateSource(text, { file: name, format }).errors);
    }
    expect(text).toContain('_and_more');
  });

  it('loads in full after a whole-text replacement', () => {
    const text = readFileSync(new URL(names[0] as string, examples), 'utf8');
    const validator = new IncrementalValidator('t', names[0]?.endsWith('.json') ? 'json' : 'yaml');
    validator.validate(text);
    validator.record(undefined);
    expect(validator.validate(text).patched).toBe(false);
  });
});
