import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { ensureSyntaxTree } from '@codemirror/language';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { cursorPlace } from './document-path.js';

/** The place at the `|` of `text`. */
function placeIn(text: string, language: 'yaml' | 'json') {
  const pos = text.indexOf('|');
  const state = EditorState.create({
    doc: text.replace('|', ''),
    extensions: [language === 'yaml' ? yaml() : json()],
  });
  ensureSyntaxTree(state, state.doc.length, 5000);
  return cursorPlace(state, pos);
}

const YAML = [
  'templateId: t',
  'datapointSets:',
  '  - datapointSetId: system',
  '    datapointSetType: m|',
  '    datapoints:',
  '      - commonConfig:',
  '          datapointId: a',
  '          datapointT|',
  '        addressConfig:',
  '          dataType: LONG',
  '',
].join('\n');

describe('cursorPlace', () => {
  it('finds a YAML value being typed and the path of its field', () => {
    expect(placeIn(YAML, 'yaml')).toMatchObject({
      kind: 'value',
      path: ['datapointSets', 0, 'datapointSetType'],
      typed: 'm',
    });
  });

  it('finds a half-typed YAML key and the path of its object', () => {
    const place = placeIn(YAML.replace('datapointSetType: m|', 'datapointSetType: map'), 'yaml');
    expect(place).toMatchObject({ kind: 'key', path: ['datapointSets', 0, 'datapoints', 0, 'commonConfig'] });
    expect(place.typed).toBe('datapointT');
  });

  it('finds the place in a long document whose first parse slice stopped before the cursor', () => {
    // EditorState.create parses under a thousand characters; the editor's view parses the rest
    // later, so the place must not rely on the state's own tree (on a busy machine the first
    // slice stopped short even in the short examples above).
    const filler = Array.from({ length: 200 }, (_, i) => `  - datapointSetId: set${i}`).join('\n');
    const text = `templateId: t\ndatapointSets:\n${filler}\n  - datapointSetId: last\n    datapointSetType: ta`;
    const state = EditorState.create({ doc: text, extensions: [yaml()] });
    const place = cursorPlace(state, text.length);
    expect(place).toMatchObject({ kind: 'value', path: ['datapointSets', 0, 'datapointSetType'], typed: 'ta' });
  });

  it('finds a key at the root of a YAML document', () => {
    expect(placeIn('templateId: t\ntempl|\n', 'yaml')).toMatchObject({ kind: 'key', path: [], typed: 'templ' });
  });

  it('finds a JSON property name and a JSON value', () => {
    const key = placeIn('{"datapointSets": [{"datapointSetId": "s", "data|"}]}', 'json');
    expect(key).toMatchObject({ kind: 'key', path: ['datapointSets', 0], typed: 'data' });
    const value = placeIn('{"datapointSets": [{"datapointSetType": "ta|"}]}', 'json');
    expect(value).toMatchObject({ kind: 'value', path: ['datapointSets', 0, 'datapointSetType'], typed: 'ta' });
  });
});
