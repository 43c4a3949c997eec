/**
 * One piece of a catalog parsed: decoded, read (whole JSON Lines, or a piece of a BMEcat
 * document's items with the header's defaults), checked and indexed (`finishCatalogItems`), and
 * packed for the importing thread. A parse worker (`catalog-parse-worker.ts`) does this for every
 * piece it is posted; the importing thread does it while the workers start (`parseCatalog`).
 */
import { errorMessage } from '@triad/common';
import { readBmecatPiece } from './bmecat-pieces.js';
import { CatalogParser, finishCatalogItems } from './catalog-parser.js';
import { decodePiece } from './catalog-text-decoder.js';
import type { BmecatDefaults } from './bmecat-item.js';
import type { BmecatTransaction } from './bmecat-transaction.js';
import type { TextSource } from './catalog-text-decoder.js';
import type { PackedItems } from './packed-items.js';
import type { UnkeptElement } from './unkept-elements.js';
import { XmlSyntaxError } from './xml-event-reader.js';
import type { ShopPriceTerms } from '../model/shop-price-terms.js';
import { UnkeptElements } from './unkept-elements.js';
import { packItems } from './packed-items.js';

/**
 * A message to a parse worker: a piece of whole JSON Lines (line numbers counted from the piece's
 * start), or a piece of a BMEcat document's items (`readBmecatPiece`) with the header's defaults.
 * The bytes end on a whole character: JSON Lines are UTF-8, a BMEcat piece is in its `source`'s
 * encoding (UTF-8 for a UTF-16 file, which the importing thread turns into UTF-8 first).
 */
export type ParseRequest = (
  | { readonly kind: 'lines'; readonly data: ArrayBuffer }
  | {
      readonly kind: 'bmecat';
      readonly data: ArrayBuffer;
      readonly source: TextSource;
      readonly defaults: BmecatDefaults;
      readonly transaction: BmecatTransaction | undefined;
    }
) & {
  /** Count the words of the piece's articles (`PackedItems.words`), for a store that counts them. */
  countWords?: boolean;
};

/**
 * A worker's answer to one request: the records, checked and indexed, with lines counted from
 * the piece's start, and how many lines the piece held; for BMEcat also what `readBmecatPiece`
 * left (`rest`) and the depth it reached.
 */
export type ParseReply =
  | {
      readonly kind: 'items';
      /** The records (`unpackItems`). */
      readonly items: PackedItems;
      readonly lines: number;
      readonly rest?: string;
      readonly depth?: number;
      readonly trailingLines?: number;
      /** BMEcat: elements of the piece that Triad does not keep, lines counted from the piece's start. */
      unkept?: UnkeptElement[];
    }
  | {
      readonly kind: 'failed';
      readonly name: string;
      readonly message: string;
      readonly line?: number;
      readonly column?: number;
    };

/** The reply to `request` for the shop `shopId` (`shop`: its price terms when it has any); never throws. */
export function parsePiece(request: ParseRequest, shopId: string, shop: string | ShopPriceTerms): ParseReply {
  try {
    if (request.kind === 'lines') {
      // Whole lines on their own: line numbers from the piece's start; the caller adds the lines before it.
      const text = decodePiece(new Uint8Array(request.data), 'json-lines', 0);
      const lines = new CatalogParser('jsonl');
      const items = finishCatalogItems([...lines.feed(text), ...lines.end()], shop);
      return { kind: 'items', items: packItems(items, shopId, request.countWords), lines: lines.lines };
    }
    // BMEcat pieces start somewhere on the line of an end tag.
    const text = decodePiece(new Uint8Array(request.data), request.source);
    const unkept = new UnkeptElements(request.transaction);
    const { items, ...piece } = readBmecatPiece(text, request.defaults, 1, unkept);
    const reply: ParseReply & { kind: 'items' } = {
      kind: 'items',
      items: packItems(finishCatalogItems(items, shop, request.transaction), shopId, request.countWords),
      ...piece,
    };
    if (!unkept.empty) reply.unkept = unkept.list();
    return reply;
  } catch (error) {
    if (error instanceof XmlSyntaxError)
      return {
        kind: 'failed',
        name: error.name,
        message: error.reason,
        line: error.line,
        ...(error.column !== undefined ? { column: error.column } : {}),
      };
    return { kind: 'failed', name: error instanceof Error ? error.name : 'Error', message: errorMessage(error) };
  }
}
