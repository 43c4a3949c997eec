import { toJsonPointer } from '../problem.js';
import { JsonPositions, readJsonString } from './json-positions.js';
import { formatPlace, loadFailure, quoteForMessage } from './load-failure.js';
import { intAt } from './int-at.js';
import type { LineIndex } from './line-index.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Objects with more keys than this check duplicates with a Map instead of pairwise. */
const PAIRWISE_KEY_LIMIT = 24;

/**
 * Scans a JSON text that `JSON.parse` has accepted and records where each value starts. Refuses,
 * with a `DocumentLoadError`, what `JSON.parse` lets through: duplicate keys
 * (`DT_ERR_LOAD_DUPLICATE_KEY`), nesting deeper than `maxDepth` (`DT_ERR_LOAD_TOO_DEEP`) and numbers
 * too large to be finite (`DT_ERR_LOAD_NOT_FINITE`).
 *
 * The text must be well-formed JSON: the scanner trusts the grammar and only looks at the
 * characters that delimit values (strings are skipped with `indexOf`), which keeps it cheaper
 * than `JSON.parse` itself. It is one flat loop over local variables because it runs on every
 * load of every JSON document.
 */
export function scanJsonPositions(text: string, maxDepth: number, lines: LineIndex): JsonPositions {
  const length = text.length;
  let capacity = Math.max(64, length >> 4);
  let start: Int32Array = new Int32Array(capacity);
  let keyAt: Int32Array = new Int32Array(capacity);
  let end: Int32Array = new Int32Array(capacity);
  let count = 0;
  /** Node indexes of the open containers, and whether each is an object. */
  const open: number[] = [];
  const isObject: boolean[] = [];
  /** Keys of the open objects as [quote, closing quote, escaped 0|1]; `keyBase` marks each object's first. */
  const keys: number[] = [];
  let keyTop = 0;
  const keyBase: number[] = [];
  /** Per open object: decoded key -> quote offset, once it has too many keys to compare pairwise. */
  const keyMaps: (Map<string, number> | undefined)[] = [];
  // Escapes are rare: knowing where the next backslash is tells whether a key holds one.
  let backslash = text.indexOf('\\');
  if (backslash === -1) backslash = length;

  let p = 0;
  let expectKey = false;
  let pendingKey = -1;
  while (p < length) {
    const c = text.charCodeAt(p);
    if (c === 0x0a) {
      // Indentation: the hottest loop of the scan in pretty-printed JSON.
      p += 1;
      while (text.charCodeAt(p) === 0x20) p += 1;
    } else if (c === 0x20 || c === 0x0d || c === 0x09 || c === 0x3a) {
      p += 1;
    } else if (c === QUOTE) {
      let close = text.indexOf('"', p + 1);
      while (text.charCodeAt(close - 1) === BACKSLASH) {
        let slashes = 1;
        while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes += 1;
        if (slashes % 2 === 0) break;
        close = text.indexOf('"', close + 1);
      }
      if (expectKey) {
        if (backslash < p) {
          backslash = text.indexOf('\\', p);
          if (backslash === -1) backslash = length;
        }
        const level = keyMaps.length - 1;
        const map = keyMaps[level];
        if (map !== undefined) {
          const key = readJsonString(text, p);
          const earlier = map.get(key);
          if (earlier !== undefined)
            duplicate({ text, lines, maxDepth, open, isObject, start, keyAt, end, count }, earlier, p);
          map.set(key, p);
        } else {
          const base = keyBase[level] ?? 0; // keyBase has an entry per open object, as keyMaps
          const size = close - p;
          const escaped = backslash < close;
          for (let k = base; k < keyTop; k += 3) {
            const other = keys[k] ?? 0;
            if (escaped || keys[k + 2] === 1) {
              // Different spellings can decode to the same key ("a" and "\\u0061").
              if (readJsonString(text, other) === readJsonString(text, p))
                duplicate({ text, lines, maxDepth, open, isObject, start, keyAt, end, count }, other, p);
            } else if ((keys[k + 1] ?? 0) - other === size) {
              let same = true;
              for (let i = 1; i < size; i += 1) {
                if (text.charCodeAt(other + i) !== text.charCodeAt(p + i)) {
                  same = false;
                  break;
                }
              }
              if (same) duplicate({ text, lines, maxDepth, open, isObject, start, keyAt, end, count }, other, p);
            }
          }
          keys[keyTop] = p;
          keys[keyTop + 1] = close;
          keys[keyTop + 2] = escaped ? 1 : 0;
          keyTop += 3;
          if (keyTop - base > 3 * PAIRWISE_KEY_LIMIT) {
            const index = new Map<string, number>();
            for (let k = base; k < keyTop; k += 3) {
              const quote = keys[k] ?? 0;
              index.set(readJsonString(text, quote), quote);
            }
            keyMaps[level] = index;
          }
        }
        pendingKey = p;
        expectKey = false;
      } else {
        if (count === capacity) [capacity, start, keyAt, end] = grow(start, keyAt, end);
        start[count] = p;
        keyAt[count] = pendingKey;
        end[count] = count + 1;
        count += 1;
        pendingKey = -1;
      }
      p = close + 1;
    } else if (c === 0x2c) {
      expectKey = isObject[isObject.length - 1] === true;
      p += 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (count === capacity) [capacity, start, keyAt, end] = grow(start, keyAt, end);
      start[count] = p;
      keyAt[count] = pendingKey;
      open.push(count);
      count += 1;
      pendingKey = -1;
      expectKey = c === 0x7b;
      isObject.push(expectKey);
      if (open.length > maxDepth) tooDeep({ text, lines, maxDepth, open, isObject, start, keyAt, end, count }, p);
      if (expectKey) {
        keyBase.push(keyTop);
        keyMaps.push(undefined);
      }
      p += 1;
    } else if (c === 0x7d || c === 0x5d) {
      const closed = open.pop();
      if (closed !== undefined) end[closed] = count;
      if (isObject.pop() === true) {
        keyTop = keyBase.pop() ?? 0;
        keyMaps.pop();
      }
      expectKey = false;
      p += 1;
    } else {
      // A number or a literal: runs to the next delimiter.
      if (count === capacity) [capacity, start, keyAt, end] = grow(start, keyAt, end);
      start[count] = p;
      keyAt[count] = pendingKey;
      end[count] = count + 1;
      count += 1;
      pendingKey = -1;
      let q = p + 1;
      let exponent = false;
      for (;;) {
        const d = text.charCodeAt(q);
        if (
          d === 0x2c ||
          d === 0x7d ||
          d === 0x5d ||
          d === 0x20 ||
          d === 0x0a ||
          d === 0x0d ||
          d === 0x09 ||
          q >= length
        )
          break;
        if (d === 0x65 || d === 0x45) exponent = true;
        q += 1;
      }
      // Only an exponent or 309+ digits can overflow a double; literals never do.
      if ((exponent || q - p > 308) && c !== 0x74 && c !== 0x66 && c !== 0x6e) {
        const written = text.slice(p, q);
        if (!Number.isFinite(Number(written)))
          notFinite({ text, lines, maxDepth, open, isObject, start, keyAt, end, count }, p, written);
      }
      p = q;
    }
  }
  // Views, not copies: the spare capacity (a few bytes per text character at most) is cheaper to keep than to copy.
  return new JsonPositions(text, start.subarray(0, count), keyAt.subarray(0, count), end.subarray(0, count));
}

/**
 * Doubles the node arrays. A helper, not a closure: a closure over the scanner's locals would slow every access to
 * them.
 */
function grow(start: Int32Array, keyAt: Int32Array, end: Int32Array): [number, Int32Array, Int32Array, Int32Array] {
  const capacity = start.length * 2;
  const bigger = (old: Int32Array) => {
    const next = new Int32Array(capacity);
    next.set(old);
    return next;
  };
  return [capacity, bigger(start), bigger(keyAt), bigger(end)];
}

/** What the error builders need to know about a scan in progress. */
interface ScanContext {
  readonly text: string;
  readonly lines: LineIndex;
  readonly maxDepth: number;
  readonly open: readonly number[];
  readonly isObject: readonly boolean[];
  readonly start: Int32Array;
  readonly keyAt: Int32Array;
  readonly end: Int32Array;
  readonly count: number;
}

function duplicate(scan: ScanContext, first: number, second: number): never {
  const key = readJsonString(scan.text, second);
  const at = scan.lines.positionAt(second);
  const before = scan.lines.positionAt(first);
  throw loadFailure(
    'DT_ERR_LOAD_DUPLICATE_KEY',
    { path: toJsonPointer([...openPath(scan, false), key]), line: at.line, column: at.column },
    `Duplicate key ${quoteForMessage(key)} at ${formatPlace(at)}: the same object already has it at ` +
      `${formatPlace(before)}; ` +
      'remove one of the two or rename it (JSON parsers would silently keep only the last).',
    { found: key },
  );
}

function tooDeep(scan: ScanContext, offset: number): never {
  const at = scan.lines.positionAt(offset);
  throw loadFailure(
    'DT_ERR_LOAD_TOO_DEEP',
    { path: toJsonPointer(openPath(scan, true)), line: at.line, column: at.column },
    `Objects and arrays are nested more than ${scan.maxDepth} levels deep at ${formatPlace(at)}; ` +
      'a template is far shallower: check for runaway nesting, or raise limits.maxDepth.',
    { allowed: `at most ${scan.maxDepth} levels` },
  );
}

function notFinite(scan: ScanContext, offset: number, written: string): never {
  const at = scan.lines.positionAt(offset);
  throw loadFailure(
    'DT_ERR_LOAD_NOT_FINITE',
    { path: toJsonPointer(openPath(scan, true)), line: at.line, column: at.column },
    `The number ${written.length > 40 ? written.slice(0, 37) + '...' : written} at ${formatPlace(at)} is too large ` +
      `to be represented (it would become Infinity); ` +
      'write a smaller number, or a string if it is an identifier.',
    { found: written.slice(0, 80) },
  );
}

/**
 * The path of the innermost open container, and with `withLastNode` of the node created last
 * (which must then be a child of that container, or the container itself).
 */
function openPath(scan: ScanContext, withLastNode: boolean): (string | number)[] {
  const path: (string | number)[] = [];
  const { open } = scan;
  for (const [level, container] of open.entries()) {
    const child = open[level + 1] ?? (withLastNode ? scan.count - 1 : -1);
    if (child <= container) break;
    if (scan.isObject[level] === true) {
      path.push(readJsonString(scan.text, intAt(scan.keyAt, child)));
    } else {
      let index = 0;
      for (let sibling = container + 1; sibling < child; sibling = intAt(scan.end, sibling)) index += 1;
      path.push(index);
    }
  }
  return path;
}
