import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** One record of a JSON Lines file with its 1-based line number, or why the line is not JSON. */
export type JsonLinesItem = { readonly line: number; readonly record: unknown } | { readonly line: number; readonly error: string };

/** Streams the records of a JSON Lines file, one line at a time; blank lines are skipped. */
export async function* readJsonLines(input: Readable): AsyncGenerator<JsonLinesItem> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { line, record: JSON.parse(text) as unknown };
    } catch (error) {
      yield { line, error: `not JSON: ${(error as Error).message}` };
    }
  }
}
