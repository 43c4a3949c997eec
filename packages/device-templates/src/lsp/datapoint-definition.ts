import type { Location } from 'vscode-languageserver/node';
import { cursorContext } from './cursor-context.js';
import { datapointReferenceAt, datapointsOfSet, isExpressionPath } from './datapoint-reference.js';
import type { OpenTemplate } from './open-template.js';
import { tokenEnd } from './token-end.js';

/** From a datapoint id in an expression to the `datapointId` of that datapoint in the same set. */
export function definitionAt(template: OpenTemplate, uri: string, offset: number): Location | null {
  const text = template.text.getText();
  const context = cursorContext(text, template.format, offset);
  const parsed = template.parsed;
  if (context.role !== 'value' || !isExpressionPath(context.path) || parsed === undefined) return null;
  const reference = datapointReferenceAt(text, offset);
  if (reference === undefined) return null;
  const index = datapointsOfSet(parsed.value, context.path).get(reference.id);
  if (index === undefined) return null;
  const at = parsed.positionOf([
    'datapointSets',
    Number(context.path[1]),
    'datapoints',
    index,
    'commonConfig',
    'datapointId',
  ]).offset;
  const end = tokenEnd(parsed.text, at, parsed.format);
  const positions = positionsOf(parsed.text);
  return { uri, range: { start: positions(at), end: positions(end) } };
}

/** Offset to line and character in `text` (the parsed text may be an earlier version than the editor's). */
function positionsOf(text: string): (offset: number) => { line: number; character: number } {
  return (offset) => {
    let line = 0;
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      start = i + 1;
    }
    return { line, character: offset - start };
  };
}
