/**
 * Worker thread of `parseCatalog` (`ParseWorkerPool`): says it is ready, then parses the pieces
 * the importing threads post (`parsePiece`: whole JSON Lines, or a piece of a BMEcat document's
 * items with the header's defaults, for the shop each message names) and posts the replies
 * back, one per message, in order.
 */
import { parentPort } from 'node:worker_threads';
import { parsePiece } from './parse-piece.js';
import type { ParseMessage, ParseWorkerAnswer } from './parse-worker-pool.js';

const port = parentPort;
if (port) {
  port.on('message', ({ request, shopId, shop }: ParseMessage) =>
    port.postMessage(parsePiece(request, shopId, shop) satisfies ParseWorkerAnswer),
  );
  port.postMessage({ kind: 'ready' } satisfies ParseWorkerAnswer);
}
