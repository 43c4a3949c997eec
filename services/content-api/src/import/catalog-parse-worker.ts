/**
 * Worker thread of `parseCatalog`: reads the pieces the import thread posts (whole JSON Lines,
 * or a piece of a BMEcat document's items with the header's defaults), checks and indexes the
 * records (`finishCatalogItem`), and posts them back, one reply per message, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '@triad/common';
import { readBmecatPiece } from './bmecat-pieces.js';
import { CatalogParser, finishCatalogItems } from './catalog-parser.js';
import { decodePiece } from './catalog-text-decoder.js';
import type { ParseReply, ParseRequest } from './parse-catalog.js';
import { XmlSyntaxError } from './xml-event-reader.js';
import type { ShopPriceTerms } from '../model/shop-price-terms.js';
import { UnkeptElements } from './unkept-elements.js';
import { packItems } from './packed-items.js';

const port = parentPort;
if (port) {
  const { shopId, priceTerms } = workerData as { shopId: string; priceTerms?: ShopPriceTerms };
  const shop = priceTerms ?? shopId;
  port.on('message', (request: ParseRequest) => {
    let reply: ParseReply;
    try {
      // JSON Lines pieces start at the start of a line; BMEcat pieces somewhere on the line of an end tag.
      const text =
        request.kind === 'lines'
          ? decodePiece(new Uint8Array(request.data), 'json-lines', 0)
          : decodePiece(new Uint8Array(request.data), request.source);
      if (request.kind === 'lines') {
        // Whole lines on their own: line numbers from the piece's start; the caller adds the lines before it.
        const lines = new CatalogParser('jsonl');
        reply = {
          kind: 'items',
          items: packItems(finishCatalogItems([...lines.feed(text), ...lines.end()], shop), shopId, request.countWords),
          lines: lines.lines,
        };
      } else {
        const unkept = new UnkeptElements(request.transaction);
        const { items, ...piece } = readBmecatPiece(text, request.defaults, 1, unkept);
        reply = {
          kind: 'items',
          items: packItems(finishCatalogItems(items, shop, request.transaction), shopId, request.countWords),
          ...piece,
        };
        if (!unkept.empty) reply.unkept = unkept.list();
      }
    } catch (error) {
      reply =
        error instanceof XmlSyntaxError
          ? {
              kind: 'failed',
              name: error.name,
              message: error.reason,
              line: error.line,
              ...(error.column !== undefined ? { column: error.column } : {}),
            }
          : { kind: 'failed', name: error instanceof Error ? error.name : 'Error', message: errorMessage(error) };
    }
    port.postMessage(reply);
  });
}
