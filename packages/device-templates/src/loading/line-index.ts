import { intAt } from './int-at.js';
import type { SourcePosition } from './loaded-document.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Maps offsets (UTF-16 code units) of one text to 1-based line and column.
 *
 * Line breaks are LF, CRLF and a lone CR (what both JSON and YAML treat as breaks). Columns count
 * UTF-16 code units from 1, as editors speaking LSP do. The table of line starts is built on the
 * first lookup, so a document that is never asked for a position pays nothing.
 */
export class LineIndex {
  readonly #text: string;
  #starts: Int32Array | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  /** The position of `offset`, clamped into the text. */
  positionAt(offset: number): SourcePosition {
    const starts = (this.#starts ??= buildLineStarts(this.#text));
    const at = Math.max(0, Math.min(Math.trunc(offset), this.#text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (intAt(starts, mid) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - intAt(starts, low) + 1, offset: at };
  }
}

function buildLineStarts(text: string): Int32Array {
  let starts = new Int32Array(Math.max(16, text.length >> 5));
  let count = 1; // starts[0] = 0
  const add = (start: number) => {
    if (count === starts.length) {
      const bigger = new Int32Array(starts.length * 2);
      bigger.set(starts);
      starts = bigger;
    }
    starts[count] = start;
    count += 1;
  };
  if (text.indexOf('\r') === -1) {
    // The common case: indexOf runs natively and is much faster than a loop over characters.
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) add(at + 1);
  } else {
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c === LF) add(i + 1);
      else if (c === CR) {
        if (text.charCodeAt(i + 1) === LF) i += 1;
        add(i + 1);
      }
    }
  }
  return starts.subarray(0, count);
}
