import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { isObject } from '@triad/common';
import { cursorContext } from './cursor-context.js';
import { datapointOfSet, datapointReferenceAt, datapointsOfSet, isExpressionPath } from './datapoint-reference.js';
import type { OpenTemplate } from './open-template.js';
import { schemaAtPath } from './schema-at-path.js';

/** Hover on a key or value: the field's description, its type and the values it allows. */
export function hoverAt(template: OpenTemplate, offset: number): Hover | null {
  const text = template.text.getText();
  const context = cursorContext(text, template.format, offset);
  if (context.role === 'value' && isExpressionPath(context.path))
    return datapointHover(template, text, offset, context.path);
  const path = context.key !== undefined ? [...context.path, context.key] : context.path;
  if (path.length === 0) return null;
  const facts = schemaAtPath(path);
  if (facts.schemas.length === 0) return null;
  const lines = [
    `**${String(path[path.length - 1])}**${facts.types.length > 0 ? ` (${facts.types.join(' | ')})` : ''}`,
  ];
  if (facts.description !== undefined) lines.push('', facts.description);
  if (facts.values.length > 0)
    lines.push('', `Allowed values: ${facts.values.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n') } };
}

/** Hover on `datapoints.<id>`: the datapoint's alias, type and description. */
function datapointHover(
  template: OpenTemplate,
  text: string,
  offset: number,
  path: readonly (string | number)[],
): Hover | null {
  const reference = datapointReferenceAt(text, offset);
  const parsed = template.parsed?.value;
  if (reference === undefined) return null;
  const index = datapointsOfSet(parsed, path).get(reference.id);
  if (index === undefined) return { contents: `There is no datapoint '${reference.id}' in this set.` };
  const common = datapointOfSet(parsed, path, index)?.['commonConfig'];
  const field = (name: string) => (isObject(common) && typeof common[name] === 'string' ? common[name] : undefined);
  const lines = [`**${reference.id}**${field('datapointType') !== undefined ? ` (${field('datapointType')})` : ''}`];
  for (const name of ['alias', 'description']) if (field(name) !== undefined) lines.push('', String(field(name)));
  return {
    contents: { kind: MarkupKind.Markdown, value: lines.join('\n') },
    range: { start: template.text.positionAt(reference.start), end: template.text.positionAt(reference.end) },
  };
}
