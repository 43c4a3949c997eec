import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

/** One record of a JSON Lines file with its 1-based line number, or why the line is not JSON. */
export type JsonLinesItem =
  { readonly line: number; readonly record: unknown } | { readonly line: number; readonly error: string };

/**
 * Streams the records of a JSON Lines file, one line at a time; blank lines are skipped. Lines
 * end at `\n`, `\r\n` or a lone `\r`. Only the current chunk and an unfinished line are held.
 */
export async function* readJsonLines(input: Readable): AsyncGenerator<JsonLinesItem> {
  const decoder = new StringDecoder('utf8');
  const splitter = new JsonLinesSplitter();
  for await (const chunk of input)
    yield* splitter.feed(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
  yield* splitter.feed(decoder.end());
  yield* splitter.end();
}

/** `readJsonLines` for pushed text: `feed` returns the records the text completed, `end` the last one. */
export class JsonLinesSplitter {
  #line = 0;
  #rest = '';

  /** Lines read so far (blank ones included). */
  get lines(): number {
    return this.#line;
  }

  feed(chunk: string): JsonLinesItem[] {
    const items: JsonLinesItem[] = [];
    const text = this.#rest === '' ? chunk : this.#rest + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      this.#add(text.slice(start, end), items);
      start = end + 1;
    }
    this.#rest = start === 0 ? text : text.slice(start);
    return items;
  }

  end(): JsonLinesItem[] {
    const items: JsonLinesItem[] = [];
    if (this.#rest !== '') this.#add(this.#rest, items);
    this.#rest = '';
    return items;
  }

  #add(text: string, items: JsonLinesItem[]): void {
    for (const piece of pieces(text)) {
      this.#line += 1;
      const item = parseLine(piece, this.#line);
      if (item) items.push(item);
    }
  }
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
    return { line, error: `not JSON: ${(error as Error).message}` };
  }
}
