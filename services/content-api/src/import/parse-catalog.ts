import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CatalogParser, finishCatalogItem, finishCatalogItems, type CatalogFormat, type ParsedCatalogItem, type RawCatalogItem } from './catalog-parser.js';
import { XmlSyntaxError } from './xml-event-reader.js';

/**
 * A message to a parse worker: file text (or UTF-8 bytes) in order, then the end; or, for JSON
 * Lines, a piece of whole lines parsed on its own (line numbers counted from the piece's start).
 */
export type ParseRequest =
  | { readonly kind: 'chunk'; readonly data: string | ArrayBuffer }
  | { readonly kind: 'lines'; readonly data: ArrayBuffer }
  | { readonly kind: 'end' };
/**
 * A worker's answer to one request: records, checked and indexed when `finished` (raw records
 * come as `json`, one text); for `lines`, how many lines the piece held.
 */
export type ParseReply =
  | { readonly kind: 'items'; readonly items: (ParsedCatalogItem | RawCatalogItem)[]; readonly json?: string; readonly finished: boolean; readonly lines?: number }
  | { readonly kind: 'failed'; readonly name: string; readonly message: string; readonly line?: number };

export interface ParseCatalogOptions {
  readonly format: CatalogFormat;
  readonly shopId: string;
  /**
   * `worker` (default): parse on worker threads while the caller stores what was parsed, so an
   * import uses more than one core. `inline`: parse on the calling thread.
   */
  readonly thread?: 'worker' | 'inline';
  /** JSON Lines only: parse workers (pieces of whole lines go round-robin). Default: one per core, 1 to 4. */
  readonly workers?: number;
}

/** Requests posted and not yet answered; bounds memory whichever side is slower. */
const MAX_IN_FLIGHT = 4;

/**
 * Streams the records of a catalog file, checked and indexed for one shop, in file order. On
 * workers, at most `MAX_IN_FLIGHT` pieces are between the threads, so memory stays flat. BMEcat
 * goes to one worker (the XML state runs through the file); JSON Lines is cut after a newline
 * and the pieces are shared by several workers, their records put back in file order.
 *
 * @throws XmlSyntaxError for malformed BMEcat; errors of the input stream or the workers.
 */
export async function* parseCatalog(input: Readable, options: ParseCatalogOptions): AsyncGenerator<ParsedCatalogItem> {
  const { shopId } = options;
  if (options.thread === 'inline') {
    const parser = new CatalogParser(options.format);
    const decoder = new StringDecoder('utf8');
    for await (const chunk of input) yield* finishCatalogItems(parser.feed(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer)), shopId);
    yield* finishCatalogItems([...parser.feed(decoder.end()), ...parser.end()], shopId);
    return;
  }
  const count = options.format === 'jsonl' ? (options.workers ?? Math.min(4, Math.max(1, availableParallelism()))) : 1;
  // JSON Lines workers also check and index (they share the work); the one BMEcat worker only
  // reads the XML, this thread checks and indexes while it writes, so both threads stay busy.
  const finish = options.format === 'jsonl';
  const workers = Array.from({ length: count }, () => startParseWorker({ format: options.format, shopId, finish }));
  const replies = workers.map((w) => new ReplyQueue(w));
  const pending: number[] = []; // worker of each unanswered request, in the order sent
  let turn = 0;
  let lineBase = 0;
  const post = (request: ParseRequest, transfer: ArrayBuffer[] = []) => {
    const at = request.kind === 'lines' ? turn++ % workers.length : 0;
    workers[at]!.postMessage(request, transfer);
    pending.push(at);
  };
  const answer = async (): Promise<ParsedCatalogItem[]> => {
    const reply = await replies[pending.shift()!]!.next();
    if (reply.kind === 'failed') throw reply.name === 'XmlSyntaxError' && reply.line !== undefined ? new XmlSyntaxError(reply.message, reply.line) : new Error(reply.message);
    const items = reply.json !== undefined ? (JSON.parse(reply.json) as RawCatalogItem[]) : reply.items;
    if (reply.lines !== undefined) {
      for (const item of items) (item as { line: number }).line += lineBase;
      lineBase += reply.lines;
    }
    return reply.finished ? (items as ParsedCatalogItem[]) : (items as RawCatalogItem[]).map((item) => finishCatalogItem(item, shopId));
  };
  try {
    if (options.format === 'jsonl') {
      let carry = Buffer.alloc(0);
      for await (const chunk of input) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        const cut = bytes.lastIndexOf(10);
        if (cut === -1) {
          carry = Buffer.concat([carry, bytes]);
          continue;
        }
        // The newline byte never occurs inside a UTF-8 sequence: the piece is whole lines and whole characters.
        const data = ownBuffer(carry, bytes.subarray(0, cut + 1));
        post({ kind: 'lines', data }, [data]);
        carry = Buffer.from(bytes.subarray(cut + 1));
        while (pending.length >= MAX_IN_FLIGHT) yield* await answer();
      }
      if (carry.length > 0) {
        const data = ownBuffer(carry, Buffer.alloc(0));
        post({ kind: 'lines', data }, [data]);
      }
    } else {
      for await (const chunk of input) {
        if (typeof chunk === 'string') post({ kind: 'chunk', data: chunk });
        else {
          const data = ownBuffer(Buffer.alloc(0), chunk as Buffer);
          post({ kind: 'chunk', data }, [data]);
        }
        while (pending.length >= MAX_IN_FLIGHT) yield* await answer();
      }
      post({ kind: 'end' });
    }
    while (pending.length > 0) yield* await answer();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** `a` then `b` in an ArrayBuffer of their own (stream buffers may share memory), to hand over without another copy. */
function ownBuffer(a: Uint8Array, b: Uint8Array): ArrayBuffer {
  const bytes = new Uint8Array(a.byteLength + b.byteLength);
  bytes.set(a);
  bytes.set(b, a.byteLength);
  return bytes.buffer;
}

/** Replies in arrival order; a crash of the worker rejects the waiting and later reads. */
class ReplyQueue {
  readonly #ready: ParseReply[] = [];
  readonly #waiting: { resolve: (reply: ParseReply) => void; reject: (error: Error) => void }[] = [];
  #failure: Error | undefined;

  constructor(worker: Worker) {
    worker.on('message', (reply: ParseReply) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter.resolve(reply);
      else this.#ready.push(reply);
    });
    const fail = (error: Error) => {
      this.#failure ??= error;
      for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`catalog parse worker exited with code ${code}`)));
  }

  next(): Promise<ParseReply> {
    const ready = this.#ready.shift();
    if (ready) return Promise.resolve(ready);
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }
}

/**
 * Starts the worker from the built `.js` module, or, when this module runs from its `.ts`
 * source (tests, benchmarks, `npm run dev`, all through tsx), from the `.ts` source with tsx
 * registered inside the worker first (a worker does not inherit the parent's loader).
 */
function startParseWorker(workerData: { format: CatalogFormat; shopId: string; finish: boolean }): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./catalog-parse-worker.js', here), { workerData });
  const entry = new URL('./catalog-parse-worker.ts', here).href;
  // `require.resolve` finds tsx's CommonJS entry; its ES module twin sits beside it.
  const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData });
}
