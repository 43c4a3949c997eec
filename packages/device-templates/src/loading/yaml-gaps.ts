/**
 * Reading the text between js-yaml's frames. Between two sibling nodes (or between a
 * collection's start and its first node) YAML has only blank space, comments, node properties
 * (`&anchor`, `!tag`) and indicators: `:` before a mapping value, `- ` before a block sequence
 * entry, `?`, `,`, `[`, `{`. Which indicators appear tells what the next node is.
 */

/**
 * Offsets of the `- ` entry indicators found by the last `scanGap` (the first `gapDashCount()`). Reused to avoid
 * allocation.
 */
export const gapDashes: number[] = [];
let dashCount = 0;

/** How many entries of `gapDashes` the last `scanGap` filled. */
export function gapDashCount(): number {
  return dashCount;
}

/**
 * Scans `text[from, to)` as the space between two nodes. Returns true when it holds a `:` value
 * indicator; fills `gapDashes` with the offsets of `- ` sequence entry indicators.
 */
export function scanGap(text: string, from: number, to: number): boolean {
  dashCount = 0;
  let colon = false;
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < to && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i += 1;
    } else if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
      // An anchor or tag runs to the next blank or flow indicator and may contain ':' or '-'.
      i += 1;
      while (i < to && !isBlank(text.charCodeAt(i)) && !isFlowIndicator(text.charCodeAt(i))) i += 1;
    } else {
      if (c === 0x3a /* : */) colon = true;
      else if (c === 0x2d /* - */ && (i + 1 >= text.length || isBlank(text.charCodeAt(i + 1))))
        gapDashes[dashCount++] = i;
      i += 1;
    }
  }
  return colon;
}

/** Skips spaces, tabs, line breaks and `#` comments from `from`; returns the first other offset (at most `to`). */
export function skipBlank(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) i += 1;
    else if (c === 0x23 && (i === 0 || isBlank(text.charCodeAt(i - 1)))) {
      while (i < to && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i += 1;
    } else break;
  }
  return i;
}

/** Skips spaces and tabs only (stays on the line). */
export function skipSpaces(text: string, from: number): number {
  let i = from;
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i += 1;
  return i;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isFlowIndicator(c: number): boolean {
  return c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}
