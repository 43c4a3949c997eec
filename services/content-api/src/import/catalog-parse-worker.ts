/**
 * Worker thread of `parseCatalog`: parses the pieces the import thread posts (`parsePiece`: whole
 * JSON Lines, or a piece of a BMEcat document's items with the header's defaults) and posts the
 * replies back, one per message, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parsePiece, type ParseRequest } from './parse-piece.js';
import type { ShopPriceTerms } from '../model/shop-price-terms.js';

const port = parentPort;
if (port) {
  const { shopId, priceTerms } = workerData as { shopId: string; priceTerms?: ShopPriceTerms };
  const shop = priceTerms ?? shopId;
  port.on('message', (request: ParseRequest) => port.postMessage(parsePiece(request, shopId, shop)));
}
