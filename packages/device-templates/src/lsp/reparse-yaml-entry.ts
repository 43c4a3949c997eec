import { isObject } from '@triad/common';
import { DEFAULT_LOAD_LIMITS } from '../loading/load-document.js';
import type { LoadedDocument, SourcePosition } from '../loading/loaded-document.js';
import { arrayIndexOf } from '../loading/path-segment.js';
import { loadYamlDocument } from '../loading/yaml-document.js';
import type { DocumentPath } from '../problem.js';
import { valueAt } from '../schema/document-places.js';
import { withValue, type TextEdit } from './patch-document.js';

/** The largest entry read again on its own; beyond it, loading the whole text is about as quick. */
const MAX_ENTRY_CHARS = 512 * 1024;
/** An anchor (`&name`): an alias elsewhere may repeat what it names, so entries are not independent. */
const ANCHOR = /[\s:[{,-]&\S/;

/** A sequence entry of the document: the array at `path`, entry `index`. */
interface Entry {
  readonly path: readonly (string | number)[];
  readonly index: number;
}

/** Where an entry is written: from its line's start to the next line that holds what follows it. */
interface EntryBlock extends Entry {
  /** Offset of the start of the line of the entry's `-`. */
  readonly start: number;
  /** Column (0-based) of the `-`. */
  readonly column: number;
  /** Offset of the start of the line holding the node after the entry, or the text's end. */
  readonly end: number;
  /** 1-based line of the `-`. */
  readonly line: number;
}

/**
 * The document that loading `newText` would give, built from `document` (the same YAML text
 * before `edit`) by reading again only the block-style sequence entry (`- ...` and the lines
 * below it) that holds the edit, the innermost one for which that is sound, and splicing what it
 * reads into the value and the positions. Any edit inside the entry qualifies: keys, lines and
 * whole entries added or removed (the entry may become several).
 *
 * Undefined, so that the caller loads the text in full, when that cannot be known to give the
 * same: the text has anchors or carriage returns; the entry's lines after the edit reach to the
 * left of its `-` (other than comments and blank lines) or start a line at its column with
 * anything but `- `; the entry does not load on its own (any load problem, which a full load then
 * reports in its own words); or the edit touches the `-` or the line that follows the entry.
 *
 * Why the same: the text before the entry and after it is unchanged, the parser reaches the
 * entry in the state it reached it in before (expecting an entry at that column), and an entry
 * that loads on its own ends at its block's end, since nothing it holds (no unclosed quote or
 * bracket) can run on into a line at its `-`'s column or to the left of it.
 */
export function reparseYamlEntry(
  document: LoadedDocument,
  edit: TextEdit,
  newText: string,
): LoadedDocument | undefined {
  const old = document.text;
  if (document.format !== 'yaml' || newText.length * 3 > DEFAULT_LOAD_LIMITS.maxBytes) return undefined;
  if (!plainText(old) || !plainText(edit.text)) return undefined;
  const entries = enclosingEntries(document, edit.start);
  for (let n = entries.length - 1; n >= 0; n--) {
    const block = entryBlock(document, entries[n] as Entry, edit);
    if (block === undefined) continue;
    const delta = edit.text.length - (edit.end - edit.start);
    const text = newText.slice(block.start, block.end + delta);
    if (!entryLines(text, block.column)) continue;
    return spliced(document, block, text, newText, edit);
  }
  return undefined;
}

/** No anchor and no carriage return (cheap: the common text has no `&` or `\r` at all). */
function plainText(text: string): boolean {
  return text.indexOf('\r') < 0 && (text.indexOf('&') < 0 || !ANCHOR.test(text));
}

/** The sequence entries that hold `offset`, outermost first, found through the document's positions. */
function enclosingEntries(document: LoadedDocument, offset: number): Entry[] {
  const entries: Entry[] = [];
  const path: (string | number)[] = [];
  let node = document.value;
  for (;;) {
    if (Array.isArray(node)) {
      let low = 0;
      let high = node.length - 1;
      let found = -1;
      while (low <= high) {
        const middle = (low + high) >> 1;
        if (document.positionOf([...path, middle]).offset <= offset) {
          found = middle;
          low = middle + 1;
        } else high = middle - 1;
      }
      if (found < 0) return entries;
      entries.push({ path: [...path], index: found });
      path.push(found);
      node = node[found] as unknown;
    } else if (isObject(node)) {
      let best: string | undefined;
      let bestOffset = -1;
      for (const key of Object.keys(node)) {
        const at = document.positionOf([...path, key], 'key').offset;
        if (at <= offset && at > bestOffset) {
          best = key;
          bestOffset = at;
        }
      }
      if (best === undefined) return entries;
      path.push(best);
      node = node[best];
    } else return entries;
  }
}

/** Where `entry` is written, when it is a block-style entry that holds the whole edit; else undefined. */
function entryBlock(document: LoadedDocument, entry: Entry, edit: TextEdit): EntryBlock | undefined {
  const text = document.text;
  const value = document.positionOf([...entry.path, entry.index]);
  let dash = value.offset - 1;
  while (dash >= 0 && text.charCodeAt(dash) === 0x20) dash--;
  if (text.charCodeAt(dash) !== 0x2d /* - */ || dash === value.offset - 1 || edit.start <= dash) return undefined;
  const start = text.lastIndexOf('\n', dash - 1) + 1;
  const column = dash - start;
  if (column < 1 || !/^ *$/.test(text.slice(start, dash))) return undefined;
  const next = nextNodeOffset(document, entry);
  const end = followingLine(text, text.indexOf('\n', dash) + 1 || text.length, column);
  if (end < 0 || end - start > MAX_ENTRY_CHARS) return undefined;
  // The line that ends the block must be the one holding the next node, written plainly before it.
  if (end === text.length ? next !== text.length : next < end || !/^ *(?:- +)*$/.test(text.slice(end, next)))
    return undefined;
  // The edit stays before the line break that ends the block.
  if (edit.end > (end === text.length ? end : end - 1)) return undefined;
  return { ...entry, start, column, end, line: value.line };
}

/**
 * Offset where the node written after the entry starts: the next entry of its sequence, else the
 * next key of the mapping holding the sequence, and so on outwards; the text's end if none.
 */
function nextNodeOffset(document: LoadedDocument, entry: Entry): number {
  const path = [...entry.path];
  let segment: string | number = entry.index;
  for (;;) {
    const holder = valueAt(document.value, path);
    if (Array.isArray(holder)) {
      const index = arrayIndexOf(segment) + 1;
      if (index > 0 && index < holder.length) return document.positionOf([...path, index]).offset;
    } else if (isObject(holder)) {
      const own = document.positionOf([...path, segment], 'key').offset;
      let next = Number.POSITIVE_INFINITY;
      for (const key of Object.keys(holder)) {
        const at = document.positionOf([...path, key], 'key').offset;
        if (at > own && at < next) next = at;
      }
      if (next !== Number.POSITIVE_INFINITY) return next;
    }
    if (path.length === 0) return document.text.length;
    segment = path.pop() as string | number;
  }
}

/**
 * Start of the first line from `from` on that holds something (not blank, not only a comment) at
 * `column` or to the left of it; the text's end if none; -1 for an indentation with a tab or a
 * block too long to read again.
 */
function followingLine(text: string, from: number, column: number): number {
  for (let at = from; at < text.length;) {
    if (at - from > MAX_ENTRY_CHARS) return -1;
    let first = at;
    while (text.charCodeAt(first) === 0x20) first++;
    const c = text.charCodeAt(first);
    if (c === 0x09) return -1;
    if (first < text.length && c !== 0x0a && c !== 0x23 /* # */ && first - at <= column) return at;
    const lf = text.indexOf('\n', first);
    if (lf < 0) break;
    at = lf + 1;
  }
  return text.length;
}

/**
 * True when `block` is one or more entries of a sequence at `column`: it starts with `- ` there,
 * and every later line that holds something starts to the right of it, or with `- ` at it.
 */
function entryLines(block: string, column: number): boolean {
  if (block.includes('\r') || ANCHOR.test(block)) return false;
  for (let at = 0; at < block.length;) {
    let first = at;
    while (block.charCodeAt(first) === 0x20) first++;
    const c = block.charCodeAt(first);
    if (c === 0x09) return false;
    const holds = first < block.length && c !== 0x0a && c !== 0x23;
    if (at === 0 || (holds && first - at <= column)) {
      const dash = first - at === column && c === 0x2d;
      const after = block.charCodeAt(first + 1);
      if (!dash || !(first + 1 === block.length || after === 0x20 || after === 0x0a)) return false;
    }
    const lf = block.indexOf('\n', first);
    if (lf < 0) break;
    at = lf + 1;
  }
  return true;
}

/** The new document: `block` (the entry's new text) loaded on its own and spliced in; undefined if it does not load. */
function spliced(
  document: LoadedDocument,
  block: EntryBlock,
  text: string,
  newText: string,
  edit: TextEdit,
): LoadedDocument | undefined {
  const maxDepth = DEFAULT_LOAD_LIMITS.maxDepth - block.path.length;
  if (maxDepth < 1) return undefined;
  let entries: LoadedDocument;
  try {
    entries = loadYamlDocument(text, document.file, { ...DEFAULT_LOAD_LIMITS, maxDepth });
  } catch {
    return undefined;
  }
  const read: unknown = entries.value;
  const array: unknown = valueAt(document.value, block.path);
  if (!Array.isArray(read) || read.length === 0 || !Array.isArray(array)) return undefined;
  const before = array as readonly unknown[];
  const value = withValue(document.value, block.path, [
    ...before.slice(0, block.index),
    ...(read as readonly unknown[]),
    ...before.slice(block.index + 1),
  ]);
  const oldBlock = document.text.slice(block.start, block.end);
  const layout: Layout = {
    path: block.path,
    index: block.index,
    count: read.length,
    start: block.start,
    oldEnd: block.end,
    line: block.line,
    delta: edit.text.length - (edit.end - edit.start),
    lineDelta: countBreaks(text) - countBreaks(oldBlock),
  };
  return splicedDocument(document, entries, layout, value, newText);
}

/** How a spliced document's paths and positions map to the previous document's and the entries'. */
interface Layout {
  readonly path: readonly (string | number)[];
  readonly index: number;
  /** Entries read in place of the one at `index`. */
  readonly count: number;
  /** Where the entries' text starts (a line start, in both texts). */
  readonly start: number;
  /** Where their old text ended (a line start, or the end); later positions move by `delta` and `lineDelta`. */
  readonly oldEnd: number;
  /** Line of the entries' text's first line. */
  readonly line: number;
  readonly delta: number;
  readonly lineDelta: number;
}

/**
 * Assembles the document. Its lookups keep the previous document's lookups, not the previous
 * document (nor its text), so that a run of splices holds one full text (the last full load's).
 */
function splicedDocument(
  previous: LoadedDocument,
  entries: LoadedDocument,
  layout: Layout,
  value: unknown,
  text: string,
): LoadedDocument {
  const previousPositionOf = previous.positionOf.bind(undefined);
  const previousInString = previous.positionInString?.bind(undefined);
  const fromPrevious = (position: SourcePosition): SourcePosition =>
    position.offset < layout.oldEnd
      ? position
      : { line: position.line + layout.lineDelta, column: position.column, offset: position.offset + layout.delta };
  const fromEntries = (position: SourcePosition): SourcePosition => ({
    line: layout.line + position.line - 1,
    column: position.column,
    offset: layout.start + position.offset,
  });
  const route = routeOf(layout);
  return Object.freeze({
    value,
    format: previous.format,
    text,
    file: previous.file,
    positionOf: (path: DocumentPath, which?: 'value' | 'key') => {
      const to = route(path);
      return to.entries
        ? fromEntries(entries.positionOf(to.path, which))
        : fromPrevious(previousPositionOf(to.path, which));
    },
    positionInString: (path: DocumentPath, offset: number) => {
      const to = route(path);
      if (to.entries) return fromEntries(entries.positionInString?.(to.path, offset) ?? entries.positionOf(to.path));
      return fromPrevious(previousInString?.(to.path, offset) ?? previousPositionOf(to.path));
    },
  });
}

/** Maps a path of the new document to the same value's path in the entries read, or in the previous document. */
function routeOf(layout: Layout) {
  const depth = layout.path.length;
  return (path: DocumentPath): { readonly entries: boolean; readonly path: DocumentPath } => {
    const segments: DocumentPath = Array.isArray(path) ? path : [];
    if (segments.length <= depth) return { entries: false, path: segments };
    for (let i = 0; i < depth; i++) {
      if (String(segments[i]) !== String(layout.path[i])) return { entries: false, path: segments };
    }
    const index = arrayIndexOf(segments[depth] as string | number);
    if (index < layout.index) return { entries: false, path: segments };
    const rest = segments.slice(depth + 1);
    if (index < layout.index + layout.count) return { entries: true, path: [index - layout.index, ...rest] };
    return { entries: false, path: [...layout.path, index - layout.count + 1, ...rest] };
  };
}

function countBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
