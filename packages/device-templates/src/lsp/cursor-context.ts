import type { SourceFormat } from '../loading/loaded-document.js';
import type { CursorContext } from './cursor-context-type.js';
import { yamlCursorContext } from './yaml-cursor-context.js';

/** The cursor context at UTF-16 `offset` of `text`. Tolerates unfinished documents. Never throws. */
export function cursorContext(text: string, format: SourceFormat, offset: number): CursorContext {
  return format === 'json' ? jsonCursorContext(text, offset) : yamlCursorContext(text, offset);
}

interface Frame {
  readonly kind: 'object' | 'array';
  key: string | undefined;
  afterColon: boolean;
  index: number;
}

/** Scans JSON text up to the cursor, keeping the stack of open objects and arrays. */
export function jsonCursorContext(text: string, offset: number): CursorContext {
  const stack: Frame[] = [];
  const top = () => stack[stack.length - 1];
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const close = closingQuote(text, i);
      if (offset <= close) return contextAt(stack, { start: i + 1, end: close }, text);
      const frame = top();
      if (frame?.kind === 'object' && !frame.afterColon) frame.key = decodeJsonString(text.slice(i, close + 1));
      i = close;
    } else if (c === 0x7b /* { */) stack.push({ kind: 'object', key: undefined, afterColon: false, index: 0 });
    else if (c === 0x5b /* [ */) stack.push({ kind: 'array', key: undefined, afterColon: false, index: 0 });
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop();
    else if (c === 0x3a /* : */) {
      const frame = top();
      if (frame !== undefined) frame.afterColon = true;
    } else if (c === 0x2c /* , */) {
      const frame = top();
      if (frame?.kind === 'object') {
        frame.afterColon = false;
        frame.key = undefined;
      } else if (frame !== undefined) frame.index++;
    }
  }
  return contextAt(stack, undefined, text);
}

function contextAt(
  stack: readonly Frame[],
  string: { start: number; end: number } | undefined,
  text: string,
): CursorContext {
  const path: (string | number)[] = [];
  for (const [i, frame] of stack.entries()) {
    const last = i === stack.length - 1;
    if (frame.kind === 'array') path.push(frame.index);
    else if (frame.afterColon && frame.key !== undefined) path.push(frame.key);
    else if (!last) path.push(frame.key ?? '');
    else if (string === undefined) return { role: 'key', path };
    else return { role: 'key', path, string, key: decodeJsonString(`"${text.slice(string.start, string.end)}"`) };
  }
  return { role: 'value', path, ...(string !== undefined ? { string } : {}) };
}

/** Offset of the quote closing the JSON string opened at `open`, or of the line's end if unclosed. */
function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22 || c === 0x0a || c === 0x0d) return i;
  }
  return text.length;
}

function decodeJsonString(quoted: string): string {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === 'string' ? value : quoted.slice(1, -1);
  } catch {
    return quoted.slice(1, -1);
  }
}
