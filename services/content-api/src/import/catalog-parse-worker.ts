/**
 * Worker thread of `parseCatalog`: reads what the import thread posts (`CatalogParser`: a stream
 * of chunks, or pieces of whole JSON Lines), checks and indexes the records when asked to
 * (`finishCatalogItem`), and posts them back, one reply per message, in order.
 */
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { CatalogParser, finishCatalogItems, type CatalogFormat, type RawCatalogItem } from './catalog-parser.js';
import type { ParseReply, ParseRequest } from './parse-catalog.js';
import { XmlSyntaxError } from './xml-event-reader.js';

const port = parentPort;
if (port) {
  const { format, shopId, finish } = workerData as { format: CatalogFormat; shopId: string; finish: boolean };
  const parser = new CatalogParser(format);
  const decoder = new StringDecoder('utf8');
  // Raw records cross as one JSON text: cheaper than cloning their many small objects.
  const done = (items: readonly RawCatalogItem[]) => (finish ? { items: finishCatalogItems(items, shopId), finished: true } : { items: [], json: JSON.stringify(items), finished: false });
  port.on('message', (request: ParseRequest) => {
    let reply: ParseReply;
    try {
      if (request.kind === 'lines') {
        // Whole lines on their own: line numbers from the piece's start; the caller adds the lines before it.
        const lines = new CatalogParser(format);
        reply = { kind: 'items', ...done([...lines.feed(Buffer.from(request.data).toString('utf8')), ...lines.end()]), lines: lines.lines };
      } else if (request.kind === 'chunk') {
        reply = { kind: 'items', ...done(parser.feed(typeof request.data === 'string' ? request.data : decoder.write(Buffer.from(request.data)))) };
      } else {
        reply = { kind: 'items', ...done([...parser.feed(decoder.end()), ...parser.end()]) };
      }
    } catch (error) {
      reply =
        error instanceof XmlSyntaxError
          ? { kind: 'failed', name: error.name, message: error.reason, line: error.line }
          : { kind: 'failed', name: (error as Error).name, message: (error as Error).message };
    }
    port.postMessage(reply);
  });
}
