import { CompletionItemKind, MarkupKind, type CompletionItem } from 'vscode-languageserver/node';
import { isObject } from '@triad/common';
import { SUBSTITUTION_VARIABLES } from '../semantics/check-substitution-variables.js';
import { cursorContext } from './cursor-context.js';
import { DATAPOINT_FIELDS, datapointsOfSet, isExpressionPath } from './datapoint-reference.js';
import type { OpenTemplate } from './open-template.js';
import { schemaAtPath } from './schema-at-path.js';

const JS_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Completion at `offset`: keys the schema allows (those not yet written) where a key goes, enum
 * values where a value goes, datapoint ids after `datapoints.` or `datapoints['` in an expression, the
 * fields a datapoint has after `datapoint.` and `datapoints.<id>.`,
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
            textEdit: { range: range(offset - (dotted[1] ?? '').length, offset), newText: id },
          }));
      }
      const field = /(?:\bdatapoint|datapoints\.[\w$]+|datapoints\[[^\]]*\])\.(\w*)$/.exec(before);
      if (field !== null)
        return DATAPOINT_FIELDS.map((name) => ({
          label: name,
          kind: CompletionItemKind.Field,
          textEdit: { range: range(offset - (field[1] ?? '').length, offset), newText: name },
        }));
      const bracket = /datapoints\[\s*\\?(['"])([^'"\\]*)$/.exec(before);
      if (bracket !== null)
        return ids.map((id) => ({
          label: id,
          kind: CompletionItemKind.Reference,
          textEdit: { range: range(offset - (bracket[2] ?? '').length, offset), newText: id },
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
          range: range(offset - (placeholder[1] ?? '').length, offset),
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

/** The value at `path` of a parsed template, or undefined. */
function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let node = value;
  for (const segment of path) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[String(segment)];
    else return undefined;
  }
  return node;
}
