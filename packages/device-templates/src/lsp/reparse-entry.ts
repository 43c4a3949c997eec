import { isObject } from '@triad/common';
import { DEFAULT_LOAD_LIMITS } from '../loading/load-document.js';
import type { LoadedDocument, SourcePosition } from '../loading/loaded-document.js';
import { arrayIndexOf } from '../loading/path-segment.js';
import { loadJsonDocument } from '../loading/json-document.js';
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
 * The document that loading `newText` would give, built from `document` (the same text before
 * `edit`) by reading again only the array entry that holds the edit, the innermost one for which
 * that is sound, and splicing what it reads into the value and the positions. Any edit inside the
 * entry qualifies: keys, lines and (in YAML) whole entries added or removed. An entry is a JSON
 * object or array starting its line, or a YAML block-sequence entry (`- ...` and the lines below).
 *
 * Undefined, so that the caller loads the text in full, when that cannot be known to give the
 * same: the text has carriage returns, or YAML anchors; the edit touches the entry's opening
 * bracket or `-`, its closing bracket or the line after its last one; the entry does not load on
 * its own (any load problem, which a full load then reports in its own words); in YAML, the
 * entry's lines after the edit reach to the left of its `-` (other than comments and blank lines)
 * or start a line at its column with anything but `- `.
 *
 * Why the same: the text before the entry and after it is unchanged and the parser reaches the
 * entry in the state it reached it in before. A JSON value that parses on its own ends where it
 * ended there. A YAML entry that loads on its own ends at its block's end, since nothing it
 * holds (no unclosed quote or bracket) can run on into a line at its `-`'s column or to the left.
 */
export function reparseEntry(document: LoadedDocument, edit: TextEdit, newText: string): LoadedDocument | undefined {
  const old = document.text;
  const yaml = document.format === 'yaml';
  if (newText.length * 3 > DEFAULT_LOAD_LIMITS.maxBytes) return undefined;
  if (!plainText(old, yaml) || !plainText(edit.text, yaml)) return undefined;
  const entries = enclosingEntries(document, edit.start);
  const delta = edit.text.length - (edit.end - edit.start);
  for (let n = entries.length - 1; n >= 0; n--) {
    const entry = entries[n];
    if (entry === undefined) continue;
    const block = yaml ? yamlEntryBlock(document, entry, edit) : jsonEntryBlock(document, entry, edit);
    if (block === undefined) continue;
    const text = newText.slice(block.start, block.end + delta);
    if (yaml && !entryLines(text, block.column)) continue;
    return spliced(document, block, text, newText, delta);
  }
  return undefined;
}

/** No carriage return, and in YAML no anchor (cheap: the common text has no `&` or `\r` at all). */
function plainText(text: string, yaml: boolean): boolean {
  return text.indexOf('\r') < 0 && (!yaml || text.indexOf('&') < 0 || !ANCHOR.test(text));
}

/** The array entries that hold `offset`, outermost first, found through the document's positions. */
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
      node = node[found];
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

/** Where `entry` is written, when it is a block-style YAML entry that holds the whole edit; else undefined. */
function yamlEntryBlock(document: LoadedDocument, entry: Entry, edit: TextEdit): EntryBlock | undefined {
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

/** Where `entry` is written, when it is a JSON object or array that starts its line and holds the whole edit. */
function jsonEntryBlock(document: LoadedDocument, entry: Entry, edit: TextEdit): EntryBlock | undefined {
  const text = document.text;
  const value = document.positionOf([...entry.path, entry.index]);
  const open = text.charCodeAt(value.offset);
  if (open !== 0x7b /* { */ && open !== 0x5b /* [ */) return undefined;
  const start = text.lastIndexOf('\n', value.offset - 1) + 1;
  if (!/^[ \t]*$/.test(text.slice(start, value.offset))) return undefined;
  const end = jsonValueEnd(text, value.offset);
  if (end < 0 || edit.start <= value.offset || edit.end >= end) return undefined;
  return { ...entry, start, column: value.offset - start, end, line: value.line };
}

/** Offset just after the JSON object or array opened at `open` (in a text that parses), or -1 when too long. */
function jsonValueEnd(text: string, open: number): number {
  const limit = Math.min(text.length, open + MAX_ENTRY_CHARS);
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < limit && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
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
    const last = path.pop();
    if (last === undefined) return document.text.length;
    segment = last;
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

/**
 * The new document: `text` (the entry's new text) loaded on its own and spliced in; undefined if
 * it does not load. YAML reads the entries as a sequence (there may be several now), JSON the one value.
 */
function spliced(
  document: LoadedDocument,
  block: EntryBlock,
  text: string,
  newText: string,
  delta: number,
): LoadedDocument | undefined {
  const yaml = document.format === 'yaml';
  // The levels of nesting above what is read: the array's for a YAML sequence, the entry's in JSON.
  const maxDepth = DEFAULT_LOAD_LIMITS.maxDepth - block.path.length - (yaml ? 0 : 1);
  if (maxDepth < 1) return undefined;
  let entries: LoadedDocument;
  try {
    const limits = { ...DEFAULT_LOAD_LIMITS, maxDepth };
    entries = yaml ? loadYamlDocument(text, document.file, limits) : loadJsonDocument(text, document.file, limits);
  } catch {
    return undefined;
  }
  const read: unknown = yaml ? entries.value : [entries.value];
  const array: unknown = valueAt(document.value, block.path);
  if (!Array.isArray(read) || read.length === 0 || !Array.isArray(array)) return undefined;
  const before: readonly unknown[] = array;
  const fresh: readonly unknown[] = read;
  const value = withValue(document.value, block.path, [
    ...before.slice(0, block.index),
    ...fresh,
    ...before.slice(block.index + 1),
  ]);
  const layout: Layout = {
    path: block.path,
    index: block.index,
    count: read.length,
    wrapped: yaml,
    start: block.start,
    oldEnd: block.end,
    line: block.line,
    delta,
    lineDelta: countBreaks(text) - countBreaks(document.text.slice(block.start, block.end)),
  };
  return splicedDocument(document, entries, layout, value, newText);
}

/** How a spliced document's paths and positions map to the previous document's and the entries'. */
interface Layout {
  readonly path: readonly (string | number)[];
  readonly index: number;
  /** Entries read in place of the one at `index`. */
  readonly count: number;
  /** Whether the document read holds the entries in a sequence (YAML), or is the one entry (JSON). */
  readonly wrapped: boolean;
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
    const segment = segments[depth];
    if (segment === undefined) return { entries: false, path: segments };
    for (let i = 0; i < depth; i++) {
      if (String(segments[i]) !== String(layout.path[i])) return { entries: false, path: segments };
    }
    const index = arrayIndexOf(segment);
    if (index < layout.index) return { entries: false, path: segments };
    const rest = segments.slice(depth + 1);
    if (index < layout.index + layout.count)
      return { entries: true, path: layout.wrapped ? [index - layout.index, ...rest] : rest };
    return { entries: false, path: [...layout.path, index - layout.count + 1, ...rest] };
  };
}

function countBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
