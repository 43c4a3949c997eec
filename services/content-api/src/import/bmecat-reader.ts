import type { Readable } from 'node:stream';
import type { LanguageCode } from '../model/article.js';
import { isSpace, NO_ATTRIBUTES, XmlEventReader, XmlSyntaxError, type XmlHandler } from './xml-event-reader.js';
import { CatalogTextDecoder } from './catalog-text-decoder.js';
import { elementTextLimit, markWithinLimits, RECORD_LIMITS } from './record-limits.js';
import { bmecatTransaction, type BmecatTransaction } from './bmecat-transaction.js';
import { apiLanguage } from './language-codes.js';
import { NO_CHILDREN, type XmlNode } from './bmecat-node.js';
import { toItem, type BmecatDefaults, type BmecatItem } from './bmecat-item.js';
import { FeatureDefinitionCollector } from './bmecat-feature-definitions.js';
import type { UnkeptElements } from './unkept-elements.js';
import { CatalogHeaderFields } from './bmecat-header-fields.js';
import type { CatalogHeader } from '../model/catalog-header.js';

/** Whether `text` is only XML whitespace. */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * The least text any element may hold (`elementTextLimit`): a text no longer is under every limit,
 * and its element's limit is not looked up (profiled: the lookup for every element of every item
 * cost a tenth of reading them).
 */
const LEAST_TEXT_LIMIT = Math.min(
  RECORD_LIMITS.idChars,
  RECORD_LIMITS.shortTextChars,
  RECORD_LIMITS.hrefChars,
  RECORD_LIMITS.longTextChars,
);

/**
 * The longest attribute value, and text of an element outside `KEPT_AS_LIMITED`, of an item whose
 * record is within every limit without a walk (`markWithinLimits`): three of them joined (a
 * `DATETIME`'s date, time and zone), or one lower-cased or normalised, stay below the shortest
 * string limit of a record member (`idChars`, 256).
 */
const PLAIN_CHARS = 64;
// Kept true if the limits change: three plain values joined (with two separators) fit the shortest string limit.
if (3 * PLAIN_CHARS + 2 > LEAST_TEXT_LIMIT) throw new Error('PLAIN_CHARS no longer fits within RECORD_LIMITS');

/**
 * Elements whose trimmed text `toItem` keeps as it is, in record members whose limit is no
 * shorter than the element's own (`elementTextLimit`, which the builder enforces): a text of
 * theirs longer than `PLAIN_CHARS` still leaves the record within every limit. `MIME_SOURCE` is
 * one only without a `MIME_ROOT` (else the root is put in front of it).
 */
const KEPT_AS_LIMITED: ReadonlySet<string> = new Set([
  'DESCRIPTION_SHORT', // descriptions/value, description: shortTextChars
  'DESCRIPTION_LONG', // descriptionsLong/value: longTextChars
  'REMARKS', // remarks/value: longTextChars
  'MANUFACTURER_NAME', // shortTextChars
  'KEYWORD', // keywords/values: idChars
  'SUPPLIER_AID', // supplierArticleId: idChars
  'SUPPLIER_PID',
  'MANUFACTURER_AID', // manufacturerArticleId: idChars
  'MANUFACTURER_PID',
  'EAN', // internationalArticleIds/value: idChars
  'INTERNATIONAL_PID',
  'FNAME', // features/name: shortTextChars
  'FVALUE', // features/values: shortTextChars
  'MIME_DESCR', // images/descriptions/value: shortTextChars
  'MIME_ALT', // images/alts/value: shortTextChars
]);

/** Local names of the item elements: `ARTICLE` (BMEcat 1.2) and `PRODUCT` (2005). */
/** BMEcat's root element. */
const ROOT = 'BMECAT';

export const ITEM_ELEMENTS: ReadonlySet<string> = new Set(['ARTICLE', 'PRODUCT']);

/**
 * Streams the items (`ARTICLE` in BMEcat 1.2, `PRODUCT` in 2005, any namespace prefix) of a
 * BMEcat file as records of our JSON Lines article shape, one at a time: only the current item's
 * subtree is in memory. The header's `LANGUAGE` (default one in 2005) labels texts without `lang`;
 * its `CURRENCY` is used when a price has none. Each item carries its `mode` attribute, if any.
 * Validation (unit codes, required fields) is left to `parseArticleRecord`. The bytes are read in
 * the encoding the file declares (`catalog-text-decoder.ts`; string chunks are taken as UTF-8).
 *
 * @throws XmlSyntaxError for malformed XML, CatalogEncodingError for bytes that are not text in
 *   the file's encoding (the import stops there).
 */
export async function* readBmecat(input: Readable): AsyncGenerator<BmecatItem> {
  const reader = new BmecatItemReader();
  const decoder = new CatalogTextDecoder('xml');
  for await (const chunk of input as AsyncIterable<Buffer | string>)
    yield* reader.feed(decoder.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  yield* reader.feed(decoder.end());
  reader.end();
}

/** `readBmecat` for pushed text: `feed` returns the items the text completed. */
export class BmecatItemReader {
  readonly #reader = new XmlEventReader();
  readonly #builder: ItemBuilder;

  /** `unkept` counts what the file holds and Triad does not keep. */
  constructor(unkept?: UnkeptElements) {
    this.#builder = new ItemBuilder(undefined, unkept);
  }

  /** @throws XmlSyntaxError */
  feed(chunk: string): BmecatItem[] {
    this.#reader.feed(chunk, this.#builder);
    return this.#builder.take();
  }

  /** @throws XmlSyntaxError when the document is not complete. */
  end(): void {
    this.#reader.end();
  }

  /** The transaction element read so far (`T_NEW_CATALOG` ...), undefined before it. */
  get transaction(): BmecatTransaction | undefined {
    return this.#builder.transaction;
  }

  /** Which catalog the file is and who sent it, as its header says (read so far). */
  get catalog(): CatalogHeader {
    return this.#builder.catalog;
  }
}

/**
 * Builds each item's subtree from the reader's calls and remembers the header's language and
 * currency; a builder for a later part of the document starts from the header's `defaults`.
 */
export class ItemBuilder implements XmlHandler {
  /** End tags close the innermost element: the builder knows the name from its own stacks. */
  readonly closeNames = false;
  #items: BmecatItem[] = [];
  #defaultLanguage: LanguageCode;
  #headerCurrency: string | undefined;
  #mimeRoot: string | undefined;
  #defaults: BmecatDefaults;
  /** Feature templates, values and groups defined around the items (`bmecat-feature-definitions.ts`). */
  readonly #definitions: FeatureDefinitionCollector;
  /** Which catalog the file is and who sent it (`HEADER`). */
  readonly #catalog = new CatalogHeaderFields();
  readonly #path: string[] = [];
  readonly #stack: XmlNode[] = [];
  #itemLine = 0;
  #headerText = '';
  #languageSeen = false;
  #languageIsDefault = false;
  #defaultChosen = false;
  #transaction: BmecatTransaction | undefined;
  /** Line of the innermost header element's start tag. */
  #headerLine = 0;
  /** Characters of the current item's text and markup read so far, and its elements. */
  #itemChars = 0;
  #itemElements = 0;
  /** Why the current item is refused (a limit it went over); its rest is then only counted, not kept. */
  #refused: { readonly path: string; readonly message: string } | undefined;
  /** Elements open inside a refused item below the stack. */
  #skipDepth = 0;
  /** The current item has an attribute or a text that `markWithinLimits` cannot vouch for (`PLAIN_CHARS`). */
  #longValue = false;
  readonly #unkept: UnkeptElements | undefined;

  /** `unkept` counts the elements read that Triad does not keep (`unkept-elements.ts`). */
  constructor(defaults: BmecatDefaults = { language: 'de', currency: undefined }, unkept?: UnkeptElements) {
    this.#unkept = unkept;
    this.#defaultLanguage = defaults.language;
    this.#headerCurrency = defaults.currency;
    this.#mimeRoot = defaults.mimeRoot;
    this.#definitions = new FeatureDefinitionCollector(defaults.definitions);
    this.#defaults = defaults;
  }

  /** The header's defaults as read so far (one object while they stay the same: every item gets it). */
  get defaults(): BmecatDefaults {
    const d = this.#defaults;
    const definitions = this.#definitions.empty ? undefined : this.#definitions.definitions;
    if (
      d.language === this.#defaultLanguage &&
      d.currency === this.#headerCurrency &&
      d.mimeRoot === this.#mimeRoot &&
      d.definitions === definitions
    )
      return d;
    this.#defaults = {
      language: this.#defaultLanguage,
      currency: this.#headerCurrency,
      ...(this.#mimeRoot !== undefined ? { mimeRoot: this.#mimeRoot } : {}),
      ...(definitions !== undefined ? { definitions } : {}),
    };
    return this.#defaults;
  }

  /** Which catalog the file is and who sent it, as its header says (read so far). */
  get catalog(): CatalogHeader {
    return this.#catalog.header;
  }

  /** Whether an item is being read (its start tag read, its end tag not yet). */
  get inItem(): boolean {
    return this.#stack.length > 0;
  }

  /** The transaction element (`T_NEW_CATALOG`, `T_UPDATE_PRODUCTS`, `T_UPDATE_PRICES`) once opened. */
  get transaction(): BmecatTransaction | undefined {
    return this.#transaction;
  }

  /** The items completed since the last call. */
  take(): BmecatItem[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  open(name: string, attributes: Readonly<Record<string, string>>, line: number): void {
    const stack = this.#stack;
    if (stack.length > 0) {
      // Inside an item (nearly every call): only the subtree is built.
      if (this.#refused) {
        this.#skipDepth += 1;
        return;
      }
      this.#itemChars += 2 * name.length + 5;
      if (attributes !== NO_ATTRIBUTES)
        for (const key in attributes) {
          const length = attributes[key]?.length ?? 0;
          this.#itemChars += key.length + length + 4;
          if (length > PLAIN_CHARS) this.#longValue = true;
        }
      this.#itemElements += 1;
      const node: XmlNode = { name, line, attributes, children: NO_CHILDREN, text: '' };
      if (this.#itemElements > RECORD_LIMITS.elements || stack.length >= RECORD_LIMITS.depth) {
        this.#refuse(
          node,
          this.#itemElements > RECORD_LIMITS.elements
            ? `the item has more than ${RECORD_LIMITS.elements} elements`
            : `elements nested deeper than ${RECORD_LIMITS.depth} levels`,
        );
        this.#skipDepth += 1;
        return;
      }
      const parent = stack[stack.length - 1]!;
      if (parent.children === NO_CHILDREN) parent.children = [node];
      else (parent.children as XmlNode[]).push(node);
      stack.push(node);
      return;
    }
    if (ITEM_ELEMENTS.has(name)) {
      // The text between items (indentation) belongs to no header element.
      this.#headerText = '';
      this.#itemLine = line;
      this.#itemChars = 2 * name.length + 5;
      this.#itemElements = 1;
      this.#longValue = false;
      stack.push({ name, line, attributes, children: NO_CHILDREN, text: '' });
      return;
    }
    // PHP serializers write the root as `BMEcat`: read as `BMECAT` (its header kept), and said so.
    const misnamedRoot = this.#path.length === 0 && name !== ROOT && name.toUpperCase() === ROOT;
    if (misnamedRoot) this.#unkept?.misnamedRoot(name, line);
    this.#path.push(misnamedRoot ? ROOT : name);
    this.#headerText = '';
    this.#headerLine = line;
    if (this.#transaction === undefined) {
      this.#transaction = bmecatTransaction(name);
      if (this.#unkept && this.#transaction) this.#unkept.transaction = this.#transaction;
    }
    this.#unkept?.outerOpen(this.#path, line);
    if (name === 'LANGUAGE') this.#languageIsDefault = attributes.default === 'true';
    this.#definitions.open(name, attributes);
  }

  text(text: string): void {
    const top = this.#stack[this.#stack.length - 1];
    if (!top) {
      if (this.#headerText.length + text.length > RECORD_LIMITS.longTextChars)
        throw new XmlSyntaxError(
          `the header element ${this.#path.at(-1) ?? ''} holds more than ${RECORD_LIMITS.longTextChars} characters: ` +
            'the file is not imported',
          this.#headerLine,
        );
      this.#headerText += text;
      return;
    }
    if (this.#refused) return;
    this.#itemChars += text.length;
    // Indentation between child elements is no text of the parent: were it kept, 5,740 indented
    // features would make PRODUCT_FEATURES a text over its limit.
    if (top.children !== NO_CHILDREN && isBlank(text)) return;
    // Room for the whitespace around a value; the value itself is measured trimmed when the element ends.
    const length = top.text.length + text.length;
    if (length > LEAST_TEXT_LIMIT + 1024 && length > elementTextLimit(top.name) + 1024) {
      this.#refuseText(top);
      return;
    }
    if (this.#itemChars > RECORD_LIMITS.itemChars) {
      this.#refuse(top, `the item is longer than ${RECORD_LIMITS.itemChars} characters`);
      return;
    }
    top.text += text;
  }

  /** Refuses the current item for `node`, keeping only the first reason. */
  #refuse(node: XmlNode, message: string): void {
    if (this.#refused) return;
    const path = `/${this.#stack.map((n) => n.name).join('/')}${this.#stack.at(-1) === node ? '' : `/${node.name}`}`;
    // Lines are counted from the item's start tag: a piece read on a worker does not know the file's line.
    const below = node.line - this.#itemLine;
    const where = below === 0 ? '' : ` (${below} line${below === 1 ? '' : 's'} below the item's start tag)`;
    this.#refused = { path, message: `${node.name}${where}: ${message}` };
  }

  /** Refuses the current item for the text of `node`, longer than its limit. */
  #refuseText(node: XmlNode): void {
    this.#refuse(
      node,
      `the text is longer than ${elementTextLimit(node.name)} characters, the most imported for ${node.name} ` +
        '(docs/content-api.md, "Import limits"): shorten it',
    );
  }

  close(): void {
    const stack = this.#stack;
    if (stack.length === 0) {
      this.#catalog.close(this.#path, this.#headerText, this.#headerLine, this.#unkept);
      const name = this.#path.pop();
      if (name !== undefined) this.#definitions.close(name, this.#headerText);
      this.#unkept?.outerClose();
      if (name === 'LANGUAGE' && this.#path.includes('HEADER')) {
        // The one marked default="true" wins (2005); else the first (1.2 has only one).
        const code = this.#headerText.trim() === '' ? undefined : apiLanguage(this.#headerText);
        if (code && !this.#defaultChosen && (this.#languageIsDefault || !this.#languageSeen)) {
          this.#defaultLanguage = code;
          this.#defaultChosen = this.#languageIsDefault;
        }
        this.#languageSeen = true;
      }
      if (name === 'CURRENCY' && this.#path.includes('CATALOG')) this.#headerCurrency = this.#headerText.trim();
      // The first MIME_ROOT of the catalog (2005 may give one per language; sources are rarely language-bound).
      if (name === 'MIME_ROOT' && this.#path.includes('CATALOG') && this.#mimeRoot === undefined)
        this.#mimeRoot = this.#headerText.trim() || undefined;
      return;
    }
    if (this.#skipDepth > 0) {
      this.#skipDepth -= 1;
      return;
    }
    const node = stack.pop()!;
    const length = node.text.length;
    if (length > PLAIN_CHARS && !this.#keptAsLimited(node.name)) this.#longValue = true;
    if (!this.#refused && length > LEAST_TEXT_LIMIT && length > elementTextLimit(node.name)) {
      if (node.text.trim().length > elementTextLimit(node.name)) {
        stack.push(node);
        this.#refuseText(node);
        stack.pop();
      }
    }
    if (stack.length > 0) return;
    const refused = this.#refused;
    this.#refused = undefined;
    if (refused) {
      this.#items.push({ line: this.#itemLine, error: refused.message, path: refused.path });
      return;
    }
    this.#unkept?.countItem(node);
    const defaults = this.defaults;
    const item = toItem(node, this.#itemLine, defaults);
    if ('record' in item && this.#withinLimits(defaults)) markWithinLimits(item.record);
    this.#items.push(item);
  }

  /** Whether a text of element `name` longer than `PLAIN_CHARS` leaves the record within its limits. */
  #keptAsLimited(name: string): boolean {
    return KEPT_AS_LIMITED.has(name) || (name === 'MIME_SOURCE' && this.#mimeRoot === undefined);
  }

  /**
   * Whether the record of the item just read is sure to be within every limit (`checkRecordLimits`
   * would find nothing): no attribute and no text outside `KEPT_AS_LIMITED` longer than
   * `PLAIN_CHARS`, no more elements than the shortest list may hold entries (every entry of a
   * record's list comes from an element of its own), and what the header adds short too. Feature
   * definitions of the header (names, units, values) are not measured: their items are walked.
   */
  #withinLimits(defaults: BmecatDefaults): boolean {
    return (
      !this.#longValue &&
      this.#itemElements <= RECORD_LIMITS.listItems &&
      defaults.definitions === undefined &&
      (defaults.currency === undefined || defaults.currency.length <= PLAIN_CHARS) &&
      (defaults.mimeRoot === undefined || defaults.mimeRoot.length + 1 + PLAIN_CHARS <= RECORD_LIMITS.hrefChars)
    );
  }
}
