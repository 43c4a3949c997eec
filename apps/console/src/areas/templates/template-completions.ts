/**
 * Completion for the template editor: keys and enum values from the device-template JSON Schema,
 * and datapoint ids after `datapoints.` inside expressions (those of the same datapoint set).
 */
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { datapointIdsAround, datapointReferenceAt, isDottedId } from './datapoint-ids.js';
import { cursorPlace } from './document-path.js';
import { enumOptions, keyOptions, type SchemaNode } from './schema-completion.js';

/** A completion source over `schema` for a document in `format`. */
export function templateCompletions(schema: SchemaNode, format: 'json' | 'yaml') {
  return (context: CompletionContext): CompletionResult | null => {
    const { state, pos } = context;
    const line = state.doc.lineAt(pos);
    const before = state.sliceDoc(line.from, pos);
    const reference = datapointReferenceAt(before);
    if (reference) {
      const ids = datapointIdsAround(state.doc.toString(), pos);
      const options: Completion[] = ids
        .filter((id) => reference.bracket || isDottedId(id))
        .map((id) => ({ label: id, type: 'variable', detail: 'datapoint of this set' }));
      return { from: pos - reference.typed.length, options, validFor: /^[a-zA-Z0-9#&_-]*$/ };
    }
    const place = cursorPlace(state, pos);
    if (!context.explicit && place.typed === '') return null;
    if (place.kind === 'key') {
      const options = keyOptions(schema, place.path).map((option): Completion => ({
        label: option.key,
        type: 'property',
        detail: option.required ? 'required' : '',
        info: option.description,
        apply: format === 'json' ? `"${option.key}": ` : `${option.key}: `,
      }));
      if (options.length === 0) return null;
      const quoted = format === 'json' && state.sliceDoc(place.from, place.from + 1) === '"';
      return { from: place.from, to: quoted ? skipClosingQuote(state.sliceDoc(pos, pos + 1), pos) : pos, options };
    }
    const values = enumOptions(schema, place.path);
    if (values.length === 0) return null;
    const quoted = format === 'json' && state.sliceDoc(place.from, place.from + 1) === '"';
    return {
      from: place.from,
      to: quoted ? skipClosingQuote(state.sliceDoc(pos, pos + 1), pos) : pos,
      options: values.map((value) => ({
        label: String(value),
        type: 'enum',
        apply: format === 'json' || typeof value !== 'string' ? JSON.stringify(value) : String(value),
      })),
    };
  };
}

function skipClosingQuote(next: string, pos: number): number {
  return next === '"' ? pos + 1 : pos;
}
