import type { Readable } from 'node:stream';
import {
  BmecatHeaderReader,
  BmecatSequentialReader,
  pieceEnd,
  type BmecatHeader,
  type BmecatPiece,
} from './bmecat-pieces.js';
import type { BmecatTransaction } from './bmecat-transaction.js';
import { CatalogParser, finishCatalogItems, type ParsedCatalogItem, type RawCatalogItem } from './catalog-parser.js';
import type { CatalogFormat } from '../model/catalog-format.js';
import type { ShopPriceTerms } from '../model/shop-price-terms.js';
import {
  CatalogTextDecoder,
  decodePiece,
  encodeSingleByte,
  utf8Boundary,
  type TextSource,
} from './catalog-text-decoder.js';
import { RECORD_LIMITS } from './record-limits.js';
import { unpackItems } from './packed-items.js';
import { ParseWorkerPool, sharedParseWorkers } from './parse-worker-pool.js';
import { parsePiece, type ParseReply, type ParseRequest } from './parse-piece.js';
import { CatalogEncodingError, type EncodingDeclaration } from './xml-encoding.js';
import { countLines, XmlEventReader, XmlSyntaxError, type XmlHandler } from './xml-event-reader.js';
import type { UnkeptElements } from './unkept-elements.js';
import type { CatalogHeader } from '../model/catalog-header.js';

export interface ParseCatalogOptions {
  readonly format: CatalogFormat;
  readonly shopId: string;
  /** The shop's price terms: records' prices are checked against them (default: any currency, no default tax). */
  readonly priceTerms?: ShopPriceTerms;
  /**
   * `worker` (default): parse on worker threads while the caller stores what was parsed, so an
   * import uses more than one core. `inline`: parse on the calling thread.
   */
  readonly thread?: 'worker' | 'inline';
  /** Parse workers (pieces go round-robin). Default: one per core, 1 to 4. */
  readonly workers?: number;
  /**
   * Pieces posted before any worker has answered are parsed on this thread (default true), as a
   * worker would (the same reply): the store starts on the first records instead of waiting for
   * the workers to start (0.5-0.7 s under tsx). False: every piece goes to a worker.
   */
  readonly parseWhileStarting?: boolean;
  /** Bytes per piece handed to a worker, about (default `PIECE_BYTES`). */
  readonly pieceBytes?: number;
  /**
   * Called once, before the first record, with the BMEcat file's transaction element (undefined
   * for JSON Lines and a file without one); its items are checked for that transaction
   * (`finishCatalogItem`); and with which catalog the file is, as its header says (undefined for
   * JSON Lines).
   */
  readonly onTransaction?: (transaction: BmecatTransaction | undefined, catalog: CatalogHeader | undefined) => void;
  /** BMEcat: counts the elements of the file that Triad does not keep, across all pieces. */
  readonly unkept?: UnkeptElements;
  /**
   * Asked as each piece goes to a worker: whether the store counts the shop's words (then the
   * workers count them for each piece's articles, `markRunWords`). Default: no.
   */
  readonly countWords?: () => boolean;
}

/** Requests posted and not yet answered; bounds memory whichever side is slower. */
const MAX_IN_FLIGHT = 8;
/**
 * Bytes of a piece handed to a worker (about: it ends after a line or an item). Larger pieces
 * mean fewer messages, but a worker then keeps more records alive at once and collects more
 * garbage: at 1 MiB, reading BMEcat took 37 µs per article against 27 at 64 KiB.
 */
const PIECE_BYTES = 64 * 1024;

/**
 * Chunk size to read a catalog file with (`highWaterMark`): reading 270 MB in 64 KiB chunks cost
 * 280 ms of CPU on the importing thread, in 1 MiB chunks 87 ms. Pieces are cut from the chunks.
 */
export const CATALOG_READ_BYTES = 1024 * 1024;

/**
 * Streams the records of a catalog file, checked and indexed for one shop, in file order. On
 * workers, the file is cut into pieces that several workers read at once, their records put back
 * in file order; at most `MAX_IN_FLIGHT` pieces are between the threads, so memory stays flat.
 * JSON Lines is cut after a newline. BMEcat's header is read here, and the items after it are cut
 * after item end tags (`bmecat-pieces.ts`).
 *
 * @throws XmlSyntaxError for malformed BMEcat; CatalogEncodingError (a kind of it) for bytes that are
 *   not text in the file's encoding (`catalog-text-decoder.ts`); errors of the input stream or the workers.
 */
export async function* parseCatalog(input: Readable, options: ParseCatalogOptions): AsyncGenerator<ParsedCatalogItem> {
  const { shopId } = options;
  const shop = options.priceTerms ?? shopId;
  let told = false;
  const tell = (transaction: BmecatTransaction | undefined, catalog: CatalogHeader | undefined) => {
    if (!told) options.onTransaction?.(transaction, catalog);
    told = true;
  };
  if (options.format === 'jsonl') tell(undefined, undefined);
  if (options.thread === 'inline') {
    const parser = new CatalogParser(options.format, options.unkept);
    const decoder = new CatalogTextDecoder(options.format === 'jsonl' ? 'json-lines' : 'xml');
    const finish = (items: readonly RawCatalogItem[]) => {
      // The transaction element opens before the first item.
      if (items.length > 0) tell(parser.transaction, parser.catalog);
      return finishCatalogItems(items, shop, parser.transaction);
    };
    for await (const chunk of input) yield* finish(parser.feed(decoder.write(chunkBytes(chunk))));
    yield* finish([...parser.feed(decoder.end()), ...parser.end()]);
    tell(parser.transaction, parser.catalog);
    return;
  }
  // The process's pool, kept between parses; a number of workers asked for gets a pool of its own.
  const own = options.workers === undefined ? undefined : new ParseWorkerPool(options.workers);
  const pool = own ?? sharedParseWorkers();
  try {
    const inline =
      options.parseWhileStarting === false ? undefined : (request: ParseRequest) => parsePiece(request, shopId, shop);
    const pieces = new PieceQueue(pool, shopId, shop, options.countWords, inline);
    const pieceBytes = options.pieceBytes ?? PIECE_BYTES;
    yield* options.format === 'jsonl'
      ? jsonLinesOnWorkers(input, pieces, shopId, pieceBytes)
      : bmecatOnWorkers(input, pieces, shop, shopId, pieceBytes, tell, options.unkept);
  } finally {
    await own?.close();
  }
}

/** JSON Lines: pieces of about `pieceBytes`, cut after a newline. */
async function* jsonLinesOnWorkers(
  input: Readable,
  pieces: PieceQueue,
  shopId: string,
  pieceBytes: number,
): AsyncGenerator<ParsedCatalogItem> {
  let lineBase = 0;
  const answer = async () => {
    const { reply } = await pieces.next();
    if (reply.kind === 'failed') throw failure(reply, lineBase);
    const items = unpackItems(reply.items, shopId);
    for (const item of items) (item as { line: number }).line += lineBase;
    lineBase += reply.lines;
    return items;
  };
  let carry: Buffer = EMPTY;
  // A line is cut short here once it is sure to be over the record limit (a character is at most
  // 3 UTF-8 bytes per UTF-16 unit): the worker still finds it too long, and memory stays bounded.
  const longest = 3 * RECORD_LIMITS.recordChars + 4;
  let dropping = false;
  for await (const chunk of input) {
    let bytes = chunkBytes(chunk);
    if (dropping) {
      const newline = bytes.findIndex((b) => b === 10 || b === 13);
      if (newline === -1) continue;
      dropping = false;
      bytes = bytes.subarray(newline);
    }
    carry = carry.length === 0 ? bytes : Buffer.concat([carry, bytes]);
    while (carry.length >= pieceBytes) {
      // The last newline in the first `pieceBytes`; for a longer line, the first after them.
      let cut = carry.lastIndexOf(10, pieceBytes - 1);
      if (cut === -1) cut = carry.indexOf(10, pieceBytes);
      if (cut === -1 && carry.length > longest) {
        // Lines a lone `\r` ends (a `\n` would have been found): cut after the last one.
        cut = carry.lastIndexOf(13, carry.length - 2);
        if (cut === -1) {
          carry = carry.subarray(0, utf8Boundary(carry.subarray(0, longest)));
          dropping = true;
        }
      }
      if (cut === -1) break;
      // The newline byte never occurs inside a UTF-8 sequence: the piece is whole lines and whole characters.
      await pieces.post({ kind: 'lines', data: ownBuffer(carry.subarray(0, cut + 1)) });
      carry = carry.subarray(cut + 1);
      while (pieces.size >= MAX_IN_FLIGHT) yield* await answer();
    }
  }
  if (carry.length > 0) await pieces.post({ kind: 'lines', data: ownBuffer(carry) });
  while (pieces.size > 0) yield* await answer();
}

/**
 * BMEcat: this thread reads the header, then cuts the rest into pieces of about `pieceBytes`
 * after an item end tag. A piece read after one that left a rest is read again here, behind that
 * rest (rare: a cut inside a comment or CDATA that holds an item end tag).
 */
async function* bmecatOnWorkers(
  input: Readable,
  pieces: PieceQueue,
  shop: string | ShopPriceTerms,
  shopId: string,
  pieceBytes: number,
  tell: (transaction: BmecatTransaction | undefined, catalog: CatalogHeader | undefined) => void,
  unkept: UnkeptElements | undefined,
): AsyncGenerator<ParsedCatalogItem> {
  const header = new BmecatHeaderReader(unkept);
  const decoder = new CatalogTextDecoder('xml');
  let start: BmecatHeader | undefined;
  let source: TextSource = 'json-lines'; // the pieces' encoding, once the header is read
  let transcode = false; // UTF-16: this thread decodes every chunk and posts UTF-8
  let carry: Buffer = EMPTY; // item bytes not posted yet
  let itemEnd: Buffer = EMPTY;
  let lineBase = 0; // lines before the next piece
  let depth = 0;
  let rest = '';
  let trailingLines = 0; // of the lines before the next piece, those after the last markup
  let sequential: BmecatSequentialReader | undefined; // reading on from a rest, until it ends cleanly
  let bytesOf = ''; // the rest the sequential reader starts with
  const answer = async (): Promise<ParsedCatalogItem[]> => {
    const { bytes, reply } = await pieces.next();
    let piece: Omit<BmecatPiece, 'items'> & { items: ParsedCatalogItem[] };
    if (rest !== '' || sequential) {
      // The piece before did not end cleanly: this thread reads on from its rest, keeping its state.
      if (!sequential) {
        unkept?.readFrom(depth - start!.depth);
        sequential = new BmecatSequentialReader(start!.defaults, lineBase + 1, depth, unkept);
        bytesOf = rest;
        rest = '';
      }
      let text: string;
      try {
        text = decodePiece(bytes!, source);
      } catch (error) {
        if (!(error instanceof CatalogEncodingError)) throw error;
        const line = sequential.nextLine + countLines(bytesOf, 0, bytesOf.length) + error.line - 1;
        throw new CatalogEncodingError(error.reason, line, error.line === 1 ? undefined : error.column);
      }
      const read = sequential.feed(bytesOf + text);
      bytesOf = '';
      const items = finishCatalogItems(read.items, shop, start!.transaction);
      if (!read.clean) return items;
      sequential = undefined;
      piece = { ...read.clean, rest: '', items };
    } else if (reply.kind === 'failed') {
      throw failure(reply, lineBase);
    } else {
      const items = unpackItems(reply.items, shopId);
      for (const item of items) (item as { line: number }).line += lineBase;
      if (reply.unkept) unkept?.merge(reply.unkept, lineBase, depth - start!.depth);
      piece = {
        items,
        rest: reply.rest ?? '',
        lines: reply.lines,
        depth: reply.depth ?? 0,
        trailingLines: reply.trailingLines ?? 0,
      };
    }
    lineBase += piece.lines;
    trailingLines = piece.trailingLines;
    depth += piece.depth;
    rest = piece.rest;
    return piece.items;
  };
  const post = (bytes: Buffer) =>
    pieces.post(
      { kind: 'bmecat', data: ownBuffer(bytes), source, defaults: start!.defaults, transaction: start!.transaction },
      bytes,
    );
  for await (const chunk of input) {
    if (start) {
      const bytes = transcode ? Buffer.from(decoder.write(chunkBytes(chunk))) : chunkBytes(chunk);
      carry = carry.length === 0 ? bytes : Buffer.concat([carry, bytes]);
    } else {
      start = header.feed(decoder.write(chunkBytes(chunk)));
      if (!start) continue;
      tell(start.transaction, start.catalog);
      if (unkept) unkept.itemName ??= start.itemName;
      lineBase = start.line - 1;
      depth = start.depth;
      itemEnd = Buffer.from(start.itemName);
      const declaration = decoder.declaration!;
      transcode = declaration.encoding === 'utf-16le' || declaration.encoding === 'utf-16be';
      const posted = pieceSource(declaration);
      source = posted;
      // The text after the header goes back to bytes in the pieces' encoding, then what the decoder held back.
      carry = Buffer.concat([
        posted.encoding === 'utf-8' ? Buffer.from(start.rest) : encodeSingleByte(start.rest, posted.encoding),
        transcode ? EMPTY : decoder.takeHeld(),
      ]);
    }
    for (let cut = pieceEnd(carry, itemEnd, pieceBytes); cut > 0; cut = pieceEnd(carry, itemEnd, pieceBytes)) {
      await post(carry.subarray(0, cut));
      carry = carry.subarray(cut);
      while (pieces.size >= MAX_IN_FLIGHT) yield* await answer();
    }
  }
  if (!start) {
    // No item: the header reader read the whole document.
    header.feed(decoder.end());
    header.end();
    tell(header.transaction, header.catalog);
    return;
  }
  if (transcode) carry = Buffer.concat([carry, Buffer.from(decoder.end())]);
  if (carry.length > 0) await post(carry);
  while (pieces.size > 0) yield* await answer();
  if (sequential) {
    sequential.end();
    return;
  }
  if (rest !== '' || depth !== 0) {
    // Reports what is left open as the reader of the whole document would.
    // The header's elements still open are the outermost (items end inside their piece).
    const open = start.open.slice(0, Math.max(0, Math.min(depth, start.open.length)));
    const reader = new XmlEventReader({ line: lineBase + 1 - trailingLines, depth, open });
    reader.feed(rest, IGNORE);
    reader.end();
  }
}

const EMPTY = Buffer.alloc(0);

/** A chunk of the input stream as bytes (a string chunk is taken as UTF-8). */
function chunkBytes(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  return typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(String(chunk));
}

/** The encoding pieces are posted in: the file's own, or UTF-8 for UTF-16 (turned into UTF-8 on this thread). */
function pieceSource(declaration: EncodingDeclaration): {
  readonly encoding: 'utf-8' | 'windows-1252' | 'iso-8859-15' | 'us-ascii';
  readonly declared: string | undefined;
} {
  const { encoding, declared } = declaration;
  return { encoding: encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding, declared };
}

/** The error a worker reported, its line counted from the file's start (`lineBase`: the lines before the piece). */
function failure(reply: ParseReply & { kind: 'failed' }, lineBase: number): Error {
  if (reply.line === undefined) return new Error(reply.message);
  if (reply.name === 'CatalogEncodingError')
    return new CatalogEncodingError(reply.message, reply.line + lineBase, reply.column);
  if (reply.name === 'XmlSyntaxError') return new XmlSyntaxError(reply.message, reply.line + lineBase, reply.column);
  return new Error(reply.message);
}
const IGNORE: XmlHandler = { open() {}, text() {}, close() {} };

/**
 * Requests in the order posted, each with its reply, parsed by the pool's workers. While none of
 * them has started (a new pool's: 0.3 s under tsx, 0.07 s built, for two), requests are parsed
 * by `inline` on this thread when given, else they wait for the workers.
 */
class PieceQueue {
  readonly #pool: ParseWorkerPool;
  readonly #shopId: string;
  readonly #shop: string | ShopPriceTerms;
  readonly #pending: { bytes: Buffer | undefined; reply: Promise<ParseReply> }[] = [];
  readonly #countWords: (() => boolean) | undefined;
  readonly #inline: ((request: ParseRequest) => ParseReply) | undefined;

  constructor(
    pool: ParseWorkerPool,
    shopId: string,
    shop: string | ShopPriceTerms,
    countWords?: () => boolean,
    inline?: (request: ParseRequest) => ParseReply,
  ) {
    this.#pool = pool;
    this.#shopId = shopId;
    this.#shop = shop;
    this.#countWords = countWords;
    this.#inline = inline;
    pool.prepare();
  }

  /** Requests not answered yet. */
  get size(): number {
    return this.#pending.length;
  }

  /**
   * Hands the request's bytes over to a worker; `keep` (the same bytes) comes back with the reply, to read the
   * piece again. A piece parsed here is followed by a turn of the event loop, so that a worker's first answer is
   * seen before the next piece (the reads between them may be microtasks only).
   */
  async post(request: ParseRequest, keep?: Buffer): Promise<void> {
    if (this.#countWords?.() === true) request.countWords = true;
    if (this.#inline && this.#pool.started === 0) {
      this.#pending.push({ bytes: keep, reply: Promise.resolve(this.#inline(request)) });
      await new Promise<void>((resolve) => setImmediate(resolve));
      return;
    }
    const reply = this.#pool.parse({ request, shopId: this.#shopId, shop: this.#shop }, [request.data]);
    // Awaited in `next`; a parse given up before then must not count as unhandled.
    reply.catch(() => {});
    this.#pending.push({ bytes: keep, reply });
  }

  /** The oldest request's kept bytes and its reply. */
  async next(): Promise<{ bytes: Buffer | undefined; reply: ParseReply }> {
    const { bytes, reply } = this.#pending.shift()!;
    return { bytes, reply: await reply };
  }
}

/** A copy of `bytes` in an ArrayBuffer of its own (stream buffers may share memory), to hand over to a worker. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}
