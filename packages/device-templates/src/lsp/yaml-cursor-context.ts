import type { CursorContext } from './cursor-context-type.js';

/** One thing a YAML line opens: a sequence entry (`- `) or a key (`name:`), at a column. */
type LineNode =
  | { readonly kind: 'dash'; readonly column: number }
  | { readonly kind: 'key'; readonly column: number; readonly name: string; readonly valueStart: number };

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[\]},&*!|>%@`-][^#]*?|-[^\s#][^#]*?)[ \t]*:(?=[ \t]|$)/;

/**
 * The cursor context of block-style YAML, from indentation: the current line's `- ` entries and
 * key, then, line by line upwards, the keys and entries that enclose it (a sequence entry's index
 * is the number of entries at its column above it). Flow collections (`{...}`, `[...]`) and
 * multi-line keys are not followed. Never throws.
 */
export function yamlCursorContext(text: string, offset: number): CursorContext {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop(); // the empty piece after the last break
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
  const cursor = offset - lineStart;
  const nodes = parseLine(line).filter((n) => n.column < cursor || (n.kind === 'key' && n.column <= cursor));
  const path: (string | number)[] = [];
  let role: 'key' | 'value' = 'key';
  // The chain of the current line, outermost first; a key the cursor is past the colon of is a value.
  const own: LineNode[] = [];
  let key: string | undefined;
  for (const node of nodes) {
    if (node.kind === 'key' && cursor < node.valueStart) {
      key = node.name;
      break;
    }
    own.push(node);
  }
  const last = own[own.length - 1];
  if (last !== undefined && last.kind === 'key') role = 'value';
  else if (line.slice(0, cursor).trim() === '-' || (last?.kind === 'dash' && !/\w/.test(line.slice(0, cursor))))
    role = 'value';
  const firstColumn = firstContent(line) ?? cursor;
  const ancestors = enclosing(lines, own[0]?.column ?? Math.min(firstColumn, cursor), own[0]?.kind === 'dash');
  const chain = [...ancestors, ...own.map((node) => ({ node, lineIndex: lines.length }))];
  for (const { node, lineIndex } of chain) {
    if (node.kind === 'key') path.push(node.name);
    else path.push(entryIndex(lines, lineIndex, node.column));
  }
  const string = stringAround(line, cursor, lineStart);
  if (role === 'key' && key !== undefined) return { role, path, key };
  return { role, path, ...(string !== undefined ? { string } : {}) };
}

/** The nodes of the lines above that enclose a node at `column`, outermost first. */
function enclosing(lines: readonly string[], column: number, isDash: boolean): { node: LineNode; lineIndex: number }[] {
  const out: { node: LineNode; lineIndex: number }[] = [];
  let limit = column;
  let dash = isDash;
  for (let i = lines.length - 1; i >= 0 && (limit > 0 || dash); i--) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    const first = firstContent(line);
    if (first === undefined || line[first] === '#') continue;
    // A sequence may sit at its key's own column (`key:` then `- item`).
    if (first > limit || (first === limit && !(dash && !line.startsWith('-', first)))) continue;
    const nodes = parseLine(line).filter((n) => n.column < limit || (dash && n.kind === 'key' && n.column === limit));
    const head = nodes[0];
    if (head === undefined) continue;
    out.unshift(...nodes.map((node) => ({ node, lineIndex: i })));
    limit = head.column;
    dash = head.kind === 'dash';
  }
  return out;
}

/** How many sequence entries at `column` precede the one on line `index` (lines above it). */
function entryIndex(lines: readonly string[], index: number, column: number): number {
  let count = 0;
  for (let i = index - 1; i >= 0; i--) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    const first = firstContent(line);
    if (first === undefined || line[first] === '#') continue;
    if (first < column) {
      if (line.startsWith('- ', first) && parseLine(line).some((n) => n.kind === 'dash' && n.column === column))
        count++;
      break;
    }
    if (first === column && (line.startsWith('- ', column) || line.length === column + 1)) count++;
    else if (first === column) break;
  }
  return count;
}

function parseLine(line: string): LineNode[] {
  const nodes: LineNode[] = [];
  let i = firstContent(line) ?? line.length;
  while (line[i] === '-' && (i + 1 === line.length || line[i + 1] === ' ')) {
    nodes.push({ kind: 'dash', column: i });
    i += 1;
    while (line[i] === ' ') i++;
  }
  const match = KEY.exec(line.slice(i));
  if (match !== null) {
    const raw = match[1] ?? '';
    const name = raw.startsWith('"') ? safeJson(raw) : raw.startsWith("'") ? raw.slice(1, -1).replace(/''/g, "'") : raw;
    nodes.push({ kind: 'key', column: i, name, valueStart: i + match[0].length });
  }
  return nodes;
}

function firstContent(line: string): number | undefined {
  const m = /\S/.exec(line);
  return m === null ? undefined : m.index;
}

function safeJson(quoted: string): string {
  try {
    const v: unknown = JSON.parse(quoted);
    return typeof v === 'string' ? v : quoted.slice(1, -1);
  } catch {
    return quoted.slice(1, -1);
  }
}

/** The quoted or plain scalar the cursor is in, on this line (offsets of its content). */
function stringAround(line: string, cursor: number, lineStart: number): { start: number; end: number } | undefined {
  for (const quote of ['"', "'"]) {
    const open = line.lastIndexOf(quote, cursor - 1);
    if (open < 0) continue;
    const before = line.slice(0, open);
    if (!/(:|-|^)\s*$/.test(before)) continue;
    const close = line.indexOf(quote, open + 1);
    if (close >= 0 && close < cursor) continue;
    return { start: lineStart + open + 1, end: lineStart + (close < 0 ? line.length : close) };
  }
  const colon = /:\s+/.exec(line);
  if (colon !== null && colon.index + colon[0].length <= cursor) {
    const start = colon.index + colon[0].length;
    return { start: lineStart + start, end: lineStart + line.length };
  }
  return undefined;
}
