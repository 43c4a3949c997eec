import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readUpdateStream, type StreamError, type StreamItem } from './update-stream.js';

async function read(chunks: (string | Uint8Array)[]): Promise<{ items: StreamItem[]; errors: StreamError[] }> {
  const errors: StreamError[] = [];
  const items: StreamItem[] = [];
  // Each array element arrives as one chunk, as a socket or file stream would deliver them.
  const source: AsyncIterable<string | Uint8Array> = Readable.from(chunks, { objectMode: true });
  for await (const item of readUpdateStream(source, (e) => errors.push(e))) items.push(item);
  return { items, errors };
}

describe('readUpdateStream', () => {
  it('reads JSON Lines split across chunks anywhere, with line numbers and without blank lines', async () => {
    const text = '{"a":1}\n\n{"b":"é"}\r\n{"c":3}';
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { items, errors } = await read([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(errors).toEqual([]);
      expect(items.map((i) => [i.value, i.line])).toEqual([
        [{ a: 1 }, 1],
        [{ b: 'é' }, 3],
        [{ c: 3 }, 4],
      ]);
    }
  });

  it('yields each line as soon as it is complete and marks the last one of a chunk', async () => {
    const seen: unknown[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const chunks = (async function* () {
      yield '{"n":1}\n{"n":2}\n{"n":';
      await gate;
      yield '3}\n';
    })();
    const reader = readUpdateStream(chunks, () => undefined);
    for await (const item of reader) {
      seen.push(item.value);
      if (seen.length === 2) {
        expect(item.endOfChunk).toBe(true);
        release();
      }
    }
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('reports a line that is not JSON and goes on', async () => {
    const { items, errors } = await read(['{"a":1}\n{oops\n{"b":2}\n']);
    expect(items.map((i) => i.line)).toEqual([1, 3]);
    expect(errors.map((e) => e.line)).toEqual([2]);
    expect(errors[0]?.message).toContain('not valid JSON');
  });

  it('reads a JSON array (after a BOM and blank lines) item by item', async () => {
    const { items, errors } = await read(['\uFEFF\n  [{"a":1},', '{"b":2}]\n']);
    expect(errors).toEqual([]);
    expect(items).toEqual([
      { value: { a: 1 }, line: 2, item: 0 },
      { value: { b: 2 }, line: 2, item: 1 },
    ]);
  });

  it('reports a broken JSON array once', async () => {
    const { items, errors } = await read(['[{"a":1},']);
    expect(items).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('not a valid JSON array');
  });

  it('yields nothing for empty input', async () => {
    expect(await read(['', '  \n'])).toEqual({ items: [], errors: [] });
  });
});
