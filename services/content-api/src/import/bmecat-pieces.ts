import { ItemBuilder, ITEM_ELEMENTS } from './bmecat-reader.js';
import type { BmecatDefaults, BmecatItem } from './bmecat-item.js';
import type { BmecatTransaction } from './bmecat-transaction.js';
import { countLines, isSpace, XmlEventReader, type OpenElement, type XmlHandler } from './xml-event-reader.js';
import { utf8Boundary } from './catalog-text-decoder.js';
import type { UnkeptElements } from './unkept-elements.js';
import type { CatalogHeader } from '../model/catalog-header.js';

/**
 * Reading one BMEcat document in pieces, so that several threads can read its items at once.
 * The header is read first (`BmecatHeaderReader`), up to the start tag of the first item. The
 * rest is cut after item end tags (`lastItemEnd`), and each piece is read on its own
 * (`readBmecatPiece`) with the header's defaults. A piece that does not end cleanly (a cut
 * inside a comment or CDATA that happened to contain an end tag, or an item longer than the
 * piece) says so in `rest`: the next piece is then read again after that rest. The cut is only
 * a guess; the rest makes every cut correct.
 */

/** Where the header ends: the first item's start tag. */
export interface BmecatHeader {
  readonly defaults: BmecatDefaults;
  /** Line of the first item's start tag. */
  readonly line: number;
  /** Elements open around the first item (`BMECAT`, `T_NEW_CATALOG`: 2). */
  readonly depth: number;
  /** Those elements, outermost first, with the lines of their start tags. */
  readonly open: readonly OpenElement[];
  /** The transaction element around the items; undefined when the file has none. */
  readonly transaction: BmecatTransaction | undefined;
  /** Which catalog the file is and who sent it. */
  readonly catalog: CatalogHeader;
  /** Local name of the item element: `ARTICLE` or `PRODUCT`. */
  readonly itemName: string;
  /** The text fed from the first item's `<` on. */
  readonly rest: string;
}

/** Reads a BMEcat document's header (language and currency) and stops at the first item. */
export class BmecatHeaderReader {
  readonly #reader = new XmlEventReader();
  readonly #builder: ItemBuilder;
  #itemName: string | undefined;
  readonly #handler: XmlHandler = {
    open: (name, attributes, line) => {
      if (ITEM_ELEMENTS.has(name)) {
        this.#itemName = name;
        return true;
      }
      this.#builder.open(name, attributes, line);
      return false;
    },
    text: (text) => this.#builder.text(text),
    close: () => this.#builder.close(),
    closeNames: false,
  };

  /** `unkept` counts the header's elements that Triad does not keep. */
  constructor(unkept?: UnkeptElements) {
    this.#builder = new ItemBuilder(undefined, unkept);
  }

  /** Reads `text`; the header once the first item's start tag is in it. @throws XmlSyntaxError */
  feed(text: string): BmecatHeader | undefined {
    this.#reader.feed(text, this.#handler);
    if (this.#itemName === undefined) return undefined;
    return {
      defaults: this.#builder.defaults,
      line: this.#reader.line,
      depth: this.#reader.depth,
      open: this.#reader.openElements,
      transaction: this.transaction,
      catalog: this.catalog,
      itemName: this.#itemName,
      rest: this.#reader.pending,
    };
  }

  /** The transaction element read so far (of a document without items: once `end` returned). */
  get transaction(): BmecatTransaction | undefined {
    return this.#builder.transaction;
  }

  /** Which catalog the file is and who sent it, as read so far. */
  get catalog(): CatalogHeader {
    return this.#builder.catalog;
  }

  /** Ends a document that has no item. @throws XmlSyntaxError when it is incomplete. */
  end(): void {
    this.#reader.end();
  }
}

/** What one piece held. */
export interface BmecatPiece {
  /** Items completed in the piece, with lines counted from `firstLine`. */
  readonly items: BmecatItem[];
  /**
   * Text that must be read again in front of the next piece: an unfinished item or markup; `''` when the piece ended
   * cleanly.
   */
  readonly rest: string;
  /** Newlines before `rest`. */
  readonly lines: number;
  /** Start tags minus end tags before `rest`. */
  readonly depth: number;
  /** Of `lines`, those in text after the last markup (a reader of the whole document ends before them). */
  readonly trailingLines: number;
}

/**
 * Reads a piece of a BMEcat document that starts outside any item and outside any markup (after
 * the header, or where the piece before it ended cleanly).
 *
 * @throws XmlSyntaxError for malformed XML, its line counted from `firstLine`.
 */
export function readBmecatPiece(
  text: string,
  defaults: BmecatDefaults,
  firstLine = 1,
  unkept?: UnkeptElements,
): BmecatPiece {
  // A piece starts after an end tag, somewhere on its line.
  const reader = new XmlEventReader({ line: firstLine, column: 'unknown' });
  const builder = new ItemBuilder(defaults, unkept);
  let itemAt = 0;
  let itemLine = firstLine;
  let itemDepth = 0;
  reader.feed(text, {
    open(name, attributes, line) {
      if (!builder.inItem && ITEM_ELEMENTS.has(name)) {
        itemAt = reader.at;
        itemLine = line;
        itemDepth = reader.depth;
      }
      builder.open(name, attributes, line);
    },
    text: (t) => builder.text(t),
    close: () => builder.close(),
    closeNames: false,
  });
  const items = builder.take();
  if (builder.inItem)
    return { items, rest: text.slice(itemAt), lines: itemLine - firstLine, depth: itemDepth, trailingLines: 0 };
  if (reader.inLongMarkup) {
    const at = reader.at;
    return { items, rest: text.slice(at), lines: countLines(text, 0, at), depth: reader.depth, trailingLines: 0 };
  }
  const pending = reader.pending;
  if (pending.includes('<'))
    return { items, rest: pending, lines: reader.line - firstLine, depth: reader.depth, trailingLines: 0 };
  // Text after the last markup lies outside any item, where it means nothing.
  const trailingLines = countLines(pending, 0, pending.length);
  return { items, rest: '', lines: reader.line - firstLine + trailingLines, depth: reader.depth, trailingLines };
}

/**
 * Reads on from a piece that did not end cleanly (`BmecatPiece.rest`), piece after piece, keeping
 * its state (an item, a long text or comment) instead of reading the rest again in front of each
 * piece: a long item costs one reading and bounded memory (`ItemBuilder` keeps at most the record
 * limits of it). `depth` is the elements open before the first text (counted from the document's
 * start, so that `end` reports as a reader of the whole document would).
 */
export class BmecatSequentialReader {
  readonly #reader: XmlEventReader;
  readonly #builder: ItemBuilder;
  readonly #firstLine: number;
  readonly #startDepth: number;

  constructor(defaults: BmecatDefaults, firstLine: number, depth: number, unkept?: UnkeptElements) {
    this.#reader = new XmlEventReader({ line: firstLine, depth, column: 'unknown' });
    this.#builder = new ItemBuilder(defaults, unkept);
    this.#firstLine = firstLine;
    this.#startDepth = depth;
  }

  /**
   * Reads `text`: the items it completed, and once the reading ends cleanly (outside any item and
   * markup) what it read since the start, as `readBmecatPiece` reports a piece.
   *
   * @throws XmlSyntaxError for malformed XML.
   */
  feed(text: string): { readonly items: BmecatItem[]; readonly clean?: Omit<BmecatPiece, 'items' | 'rest'> } {
    const reader = this.#reader;
    reader.feed(text, this.#builder);
    const items = this.#builder.take();
    const pending = reader.pending;
    if (this.#builder.inItem || reader.inLongMarkup || pending.includes('<')) return { items };
    const trailingLines = countLines(pending, 0, pending.length);
    return {
      items,
      clean: {
        lines: reader.line - this.#firstLine + trailingLines,
        depth: reader.depth - this.#startDepth,
        trailingLines,
      },
    };
  }

  /** The line the next text fed starts on. */
  get nextLine(): number {
    const pending = this.#reader.pending;
    return this.#reader.line + countLines(pending, 0, pending.length);
  }

  /** Ends the document. @throws XmlSyntaxError for what is left open. */
  end(): void {
    this.#reader.end();
  }
}

/**
 * Index just after the last end tag of an item element named `name` (local name, as ASCII
 * bytes: `ARTICLE`, `PRODUCT`) in `bytes`, looking no further back than `from`; -1 when there
 * is none. Any namespace prefix and whitespace before `>` are accepted. Text that only looks
 * like an end tag (inside a comment or CDATA) may be found too: `readBmecatPiece` then reports a
 * rest.
 */
export function lastItemEnd(bytes: Buffer, name: Buffer, from = 0): number {
  let end = bytes.length - name.length;
  while (end >= from) {
    const at = bytes.lastIndexOf(name, end);
    if (at < from || at < 2) return -1;
    end = at - 1;
    let b = at - 1;
    if (bytes[b] === 58 /* : */) {
      b -= 1;
      while (b >= 0 && isPrefixByte(bytes[b]!)) b -= 1;
    }
    if (b < 1 || bytes[b] !== 47 /* / */ || bytes[b - 1] !== 60 /* < */) continue;
    let e = at + name.length;
    while (e < bytes.length && isSpace(bytes[e]!)) e += 1;
    if (e < bytes.length && bytes[e] === 62 /* > */) return e + 1;
  }
  return -1;
}

/**
 * Where to end the next piece of `bytes` (about `pieceBytes` long): after the last item end tag
 * in the first `pieceBytes`; for an item longer than that, after the last one in `bytes`; when
 * there is none in `FORCED_CUT_PIECES` pieces' worth of bytes (a long section after the items,
 * such as BMEcat 1.2's `ARTICLE_TO_CATALOGGROUP_MAP`), after the last `>`, so memory stays
 * bounded (inside a very long item that piece leaves a rest, and is read again). -1: read more
 * first. The cut is on a whole character of UTF-8 and of any single-byte encoding (every byte
 * is one); pieces of a UTF-16 file are cut from its UTF-8 transcoding.
 */
export function pieceEnd(bytes: Buffer, itemEnd: Buffer, pieceBytes: number): number {
  if (bytes.length < pieceBytes) return -1;
  const cut = lastItemEnd(bytes.subarray(0, pieceBytes), itemEnd);
  if (cut !== -1) return cut;
  const later = lastItemEnd(bytes, itemEnd, Math.max(0, pieceBytes - itemEnd.length - 3));
  if (later !== -1 || bytes.length < FORCED_CUT_PIECES * pieceBytes) return later;
  // Text without any `>` (one long text): cut on a whole character; the reader reads on.
  const gt = bytes.lastIndexOf(62 /* > */);
  return gt === -1 ? utf8Boundary(bytes) : gt + 1;
}

/** Pieces' worth of bytes without an item end after which a piece is cut anyway. */
export const FORCED_CUT_PIECES = 16;

export { utf8Boundary };

/** A byte of a namespace prefix: anything but markup, quotes and whitespace. */
function isPrefixByte(c: number): boolean {
  return c !== 60 && c !== 62 && c !== 47 && c !== 34 && c !== 39 && !isSpace(c);
}
