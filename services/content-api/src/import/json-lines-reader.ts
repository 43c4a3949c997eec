import type { Readable } from 'node:stream';
import { errorMessage } from '@triad/common';
import { CatalogTextDecoder } from './catalog-text-decoder.js';
import { RECORD_LIMITS } from './record-limits.js';

/** One record of a JSON Lines file with its 1-based line number, or why the line is not JSON. */
export type JsonLinesItem =
  { readonly line: number; readonly record: unknown } | { readonly line: number; readonly error: string };

/**
 * Streams the records of a JSON Lines file, one line at a time; blank lines are skipped. Lines
 * end at `\n`, `\r\n` or a lone `\r`. Only the current chunk and an unfinished line are held; a
 * line longer than `RECORD_LIMITS.recordChars` is an error item, read on without being held. The
 * bytes must be UTF-8 (RFC 8259).
 *
 * @throws CatalogEncodingError for bytes that are not UTF-8, with their line and column.
 */
export async function* readJsonLines(input: Readable): AsyncGenerator<JsonLinesItem> {
  const decoder = new CatalogTextDecoder('json-lines');
  const splitter = new JsonLinesSplitter();
  for await (const chunk of input as AsyncIterable<Buffer | string>)
    yield* splitter.feed(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  yield* splitter.feed(decoder.end());
  yield* splitter.end();
}

/** `readJsonLines` for pushed text: `feed` returns the records the text completed, `end` the last one. */
export class JsonLinesSplitter {
  #line = 0;
  #rest = '';
  /** Inside a line longer than the limit: the rest of it is dropped up to its newline. */
  #skipping = false;

  /** Lines read so far (blank ones included). */
  get lines(): number {
    return this.#line;
  }

  feed(chunk: string): JsonLinesItem[] {
    const items: JsonLinesItem[] = [];
    let text = this.#rest === '' ? chunk : this.#rest + chunk;
    let start = 0;
    if (this.#skipping) {
      const end = text.indexOf('\n');
      if (end === -1) return items;
      this.#skipping = false;
      this.#tooLong(items);
      start = end + 1;
    }
    for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
      this.#add(text.slice(start, end), items);
      start = end + 1;
    }
    text = start === 0 ? text : text.slice(start);
    if (text.length > RECORD_LIMITS.recordChars) {
      // Lines a lone `\r` ends are whole; the last one is dropped from here on.
      const cr = text.lastIndexOf('\r', text.length - 2);
      if (cr !== -1) {
        this.#add(text.slice(0, cr), items);
        text = text.slice(cr + 1);
      }
      if (text.length > RECORD_LIMITS.recordChars) {
        this.#skipping = true;
        text = '';
      }
    }
    this.#rest = text;
    return items;
  }

  end(): JsonLinesItem[] {
    const items: JsonLinesItem[] = [];
    if (this.#skipping) this.#tooLong(items);
    else if (this.#rest !== '') this.#add(this.#rest, items);
    this.#skipping = false;
    this.#rest = '';
    return items;
  }

  #tooLong(items: JsonLinesItem[]): void {
    this.#line += 1;
    items.push({ line: this.#line, error: tooLong() });
  }

  #add(text: string, items: JsonLinesItem[]): void {
    for (const piece of pieces(text)) {
      this.#line += 1;
      const item =
        piece.length > RECORD_LIMITS.recordChars
          ? { line: this.#line, error: tooLong() }
          : parseLine(piece, this.#line);
      if (item) items.push(item);
    }
  }
}

function tooLong(): string {
  return (
    `the line is longer than ${RECORD_LIMITS.recordChars} characters, the most imported for one record ` +
    '(docs/content-api.md, "Import limits")'
  );
}

/** A line without its `\r`, or the lines a lone `\r` separates. */
function pieces(text: string): string[] {
  const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
  return trimmed.includes('\r') ? trimmed.split('\r') : [trimmed];
}

function parseLine(text: string, line: number): JsonLinesItem | undefined {
  if (text.trim() === '') return undefined;
  try {
    return { line, record: JSON.parse(text) as unknown };
  } catch (error) {
    return { line, error: `not JSON: ${errorMessage(error)}` };
  }
}
