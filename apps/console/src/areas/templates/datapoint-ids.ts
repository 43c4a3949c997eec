/**
 * The datapoint ids an expression at a place in a template can name: those of the same datapoint
 * set (docs/expressions.md, `datapoints.<id>`). Read from the text, not a parse, so it also works
 * while the document is broken: a set starts at its `datapointSetId` key, as every template
 * written by hand, by `triad templates init` or by a YAML/JSON dump of one puts it first.
 */

const SET_KEY = /["']?\bdatapointSetId["']?\s*:/g;
const DATAPOINT_ID = /["']?\bdatapointId["']?\s*:\s*["']?([a-zA-Z0-9#&_-]{1,80})/g;

/** Ids declared between the set boundaries around `offset`, in document order, each once. */
export function datapointIdsAround(text: string, offset: number): string[] {
  let start = 0;
  let end = text.length;
  for (const match of text.matchAll(SET_KEY)) {
    if (match.index <= offset) start = match.index;
    else {
      end = match.index;
      break;
    }
  }
  const ids = new Set<string>();
  for (const match of text.slice(start, end).matchAll(DATAPOINT_ID)) {
    if (match[1] !== undefined) ids.add(match[1]);
  }
  return [...ids];
}

/** A `datapoints.` or `datapoints['` reference being typed at the end of `before`. */
export interface DatapointReference {
  /** What is typed of the id so far. */
  readonly typed: string;
  /** True inside `datapoints['...`: the id needs no identifier-safe spelling. */
  readonly bracket: boolean;
}

/** The reference the text before the cursor ends in, if any. */
export function datapointReferenceAt(before: string): DatapointReference | undefined {
  const dotted = /\bdatapoints\.([a-zA-Z0-9_]*)$/.exec(before);
  if (dotted) return { typed: dotted[1] ?? '', bracket: false };
  const bracket = /\bdatapoints\[(['"])([a-zA-Z0-9#&_-]*)$/.exec(before);
  if (bracket) return { typed: bracket[2] ?? '', bracket: true };
  return undefined;
}

/** Whether an id can follow `datapoints.` (else it needs `datapoints['id']`). */
export function isDottedId(id: string): boolean {
  return /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(id);
}
