import { errorMessage } from '@triad/common';
/** One item read from an update stream: the parsed JSON value and where it was. */
export interface StreamItem {
  readonly value: unknown;
  /** 1-based line of a JSON Lines input; for a JSON array, the line the array starts on. */
  readonly line: number;
  /** 0-based position in a JSON array input. */
  readonly item?: number;
  /** True for the last item available before the reader waits for more input: a moment to flush output. */
  readonly endOfChunk?: boolean;
}

/** A part of the input that is not JSON, with where it was. */
export interface StreamError {
  readonly line: number;
  readonly message: string;
}

/**
 * Reads datapoint updates from text chunks (bytes or strings, any chunking): either JSON Lines
 * (one JSON value per line, parsed and yielded as each line completes, so input is processed
 * while it streams in; blank lines are skipped) or, when the first non-blank character is `[`,
 * one JSON array (read whole, then yielded item by item). A line that is not JSON is reported
 * through `onError` and skipped; a malformed array is one error. A UTF-8 BOM is ignored.
 */
export async function* readUpdateStream(
  chunks: AsyncIterable<Uint8Array | string>,
  onError: (error: StreamError) => void,
): AsyncGenerator<StreamItem> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let mode: 'unknown' | 'lines' | 'array' = 'unknown';
  let line = 1;
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (mode === 'unknown') mode = detect(pending);
    if (mode !== 'lines') continue;
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1;) {
      const next = pending.indexOf('\n', end + 1);
      const item = parseLine(pending.slice(start, end), line, onError);
      if (item !== undefined) yield next === -1 ? { ...item, endOfChunk: true } : item;
      line++;
      start = end + 1;
      end = next;
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (mode === 'unknown') mode = detect(pending);
  if (mode === 'lines') {
    const item = parseLine(pending, line, onError);
    if (item !== undefined) yield item;
    return;
  }
  if (mode === 'array') yield* parseArray(pending, onError);
}

function detect(text: string): 'unknown' | 'lines' | 'array' {
  const first = /[^\s\uFEFF]/.exec(text);
  if (first === null) return 'unknown';
  return first[0] === '[' ? 'array' : 'lines';
}

function parseLine(text: string, line: number, onError: (error: StreamError) => void): StreamItem | undefined {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return undefined;
  try {
    return { value: JSON.parse(trimmed) as unknown, line };
  } catch (error) {
    onError({ line, message: `not valid JSON (${errorMessage(error)})` });
    return undefined;
  }
}

function* parseArray(text: string, onError: (error: StreamError) => void): Generator<StreamItem> {
  const body = text.replace(/^\uFEFF/, '');
  const line = body.slice(0, body.indexOf('[')).split('\n').length;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    onError({ line, message: `the input starts with '[' but is not a valid JSON array (${errorMessage(error)})` });
    return;
  }
  if (!Array.isArray(parsed)) return;
  for (let i = 0; i < parsed.length; i++) yield { value: parsed[i] as unknown, line, item: i };
}
