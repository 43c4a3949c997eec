import type { DocumentPath } from '../problem.js';
import { intAt } from './int-at.js';
import { arrayIndexOf } from './path-segment.js';

const BACKSLASH = 0x5c;

/**
 * Where every value of a JSON text starts, in document order (preorder), with the offset of the
 * key naming it and the index just past its subtree. A path is resolved by hopping over sibling
 * subtrees, so a lookup costs the number of siblings passed, not the size of the document.
 */
export class JsonPositions {
  readonly #text: string;
  /** Offset of the first character of node i. */
  readonly #start: Int32Array;
  /** Offset of the opening quote of the key naming node i, or -1 (array element, root). */
  readonly #keyAt: Int32Array;
  /** Index of the first node after node i's subtree. */
  readonly #end: Int32Array;

  constructor(text: string, start: Int32Array, keyAt: Int32Array, end: Int32Array) {
    this.#text = text;
    this.#start = start;
    this.#keyAt = keyAt;
    this.#end = end;
  }

  /**
   * Offset of the value (or with `'key'`, the key) at `path`; for a path that does not exist,
   * the offset of the deepest existing ancestor's value.
   */
  offsetOf(path: DocumentPath, which: 'value' | 'key'): number {
    const text = this.#text;
    let node = 0;
    let found = true;
    for (const segment of path) {
      const opener = text.charCodeAt(intAt(this.#start, node));
      const next =
        opener === 0x5b
          ? this.#element(node, arrayIndexOf(segment))
          : opener === 0x7b
            ? this.#member(node, String(segment))
            : -1;
      if (next < 0) {
        found = false;
        break;
      }
      node = next;
    }
    const keyAt = intAt(this.#keyAt, node);
    return which === 'key' && found && keyAt >= 0 ? keyAt : intAt(this.#start, node);
  }

  #element(array: number, index: number): number {
    if (index < 0) return -1;
    const end = intAt(this.#end, array);
    let child = array + 1;
    for (let k = 0; k < index && child < end; k += 1) child = intAt(this.#end, child);
    return child < end ? child : -1;
  }

  #member(object: number, key: string): number {
    const end = intAt(this.#end, object);
    for (let child = object + 1; child < end; child = intAt(this.#end, child)) {
      if (readJsonString(this.#text, intAt(this.#keyAt, child)) === key) return child;
    }
    return -1;
  }
}

/** Offset of the quote closing the string that opens at `quote`. */
function closingQuote(text: string, quote: number): number {
  let close = text.indexOf('"', quote + 1);
  while (text.charCodeAt(close - 1) === BACKSLASH) {
    let slashes = 1;
    while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) break;
    close = text.indexOf('"', close + 1);
  }
  return close;
}

/** Decodes the JSON string whose opening quote is at `quote`. */
export function readJsonString(text: string, quote: number): string {
  if (quote < 0) return '';
  const close = closingQuote(text, quote);
  const raw = text.slice(quote + 1, close);
  return raw.includes('\\') ? (JSON.parse(text.slice(quote, close + 1)) as string) : raw;
}
