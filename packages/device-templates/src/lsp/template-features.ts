import {
  CompletionItemKind,
  MarkupKind,
  type CompletionItem,
  type Hover,
  type Location,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isObject } from '@triad/common';
import type { LoadedDocument, SourceFormat } from '../loading/loaded-document.js';
import { SUBSTITUTION_VARIABLES } from '../semantics/check-substitution-variables.js';
import { cursorContext } from './cursor-context.js';
import {
  DATAPOINT_FIELDS,
  datapointOfSet,
  datapointReferenceAt,
  datapointsOfSet,
  isExpressionPath,
} from './datapoint-reference.js';
import { schemaAtPath } from './schema-at-path.js';
import { tokenEnd } from './token-end.js';

/** A template open in the editor: its text and the last document of it that could be parsed. */
export interface OpenTemplate {
  readonly text: TextDocument;
  readonly format: SourceFormat;
  /** The latest parsed document (possibly of an earlier version, when the current one does not parse). */
  readonly parsed: LoadedDocument | undefined;
}

const JS_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Completion at `offset`: keys the schema allows (those not yet written) where a key goes, enum
 * values where a value goes, datapoint ids after `datapoints.` or `datapoints['` in an expression,
 * and discovery variables after `/{` in `origin` and `originTypes`.
 */
export function completeAt(template: OpenTemplate, offset: number): CompletionItem[] {
  const text = template.text.getText();
  const context = cursorContext(text, template.format, offset);
  const range = (start: number, end: number) => ({
    start: template.text.positionAt(start),
    end: template.text.positionAt(end),
  });
  if (context.role === 'value' && context.string !== undefined) {
    const before = text.slice(context.string.start, offset);
    if (isExpressionPath(context.path)) {
      const ids = [...datapointsOfSet(template.parsed?.value, context.path).keys()];
      const dotted = /datapoints\.([\w$]*)$/.exec(before);
      if (dotted !== null) {
        return ids
          .filter((id) => JS_IDENTIFIER.test(id))
          .map((id) => ({
            label: id,
            kind: CompletionItemKind.Reference,
            textEdit: { range: range(offset - (dotted[1] as string).length, offset), newText: id },
          }));
      }
      const field = /(?:\bdatapoint|datapoints\.[\w$]+|datapoints\[[^\]]*\])\.(\w*)$/.exec(before);
      if (field !== null)
        return DATAPOINT_FIELDS.map((name) => ({
          label: name,
          kind: CompletionItemKind.Field,
          textEdit: { range: range(offset - (field[1] as string).length, offset), newText: name },
        }));
      const bracket = /datapoints\[\s*\\?(['"])([^'"\\]*)$/.exec(before);
      if (bracket !== null)
        return ids.map((id) => ({
          label: id,
          kind: CompletionItemKind.Reference,
          textEdit: { range: range(offset - (bracket[2] as string).length, offset), newText: id },
        }));
    }
    const placeholder = /\/\{(\w*)$/.exec(before);
    if (placeholder !== null && (context.path[0] === 'origin' || context.path[0] === 'originTypes')) {
      const closed = text.startsWith('}/', offset);
      return SUBSTITUTION_VARIABLES.map((name) => ({
        label: name,
        kind: CompletionItemKind.Variable,
        detail: 'filled in by discovery',
        textEdit: {
          range: range(offset - (placeholder[1] as string).length, offset),
          newText: closed ? name : `${name}}/`,
        },
      }));
    }
  }
  const facts = schemaAtPath(context.role === 'key' ? context.path : context.path);
  if (context.role === 'key') {
    const existing = valueAt(template.parsed?.value, context.path);
    return [...facts.properties]
      .filter(([name]) => !(isObject(existing) && Object.hasOwn(existing, name)) && !name.includes(','))
      .map(([name, schemas]) => {
        const description = schemas.map((s) => s['description']).find((d) => typeof d === 'string');
        const insert = context.string !== undefined ? name : template.format === 'json' ? `"${name}": ` : `${name}: `;
        const item: CompletionItem = { label: name, kind: CompletionItemKind.Property, insertText: insert };
        if (context.string !== undefined)
          item.textEdit = { range: range(context.string.start, context.string.end), newText: name };
        if (typeof description === 'string') item.documentation = { kind: MarkupKind.Markdown, value: description };
        return item;
      });
  }
  return facts.values.map((value) => {
    const label = typeof value === 'string' ? value : JSON.stringify(value);
    const item: CompletionItem = { label, kind: CompletionItemKind.EnumMember };
    if (context.string !== undefined && typeof value === 'string')
      item.textEdit = { range: range(context.string.start, context.string.end), newText: value };
    else item.insertText = template.format === 'json' ? JSON.stringify(value) : label;
    return item;
  });
}

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

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let node = value;
  for (const segment of path) {
    if (Array.isArray(node)) node = node[Number(segment)] as unknown;
    else if (isObject(node)) node = node[String(segment)];
    else return undefined;
  }
  return node;
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
