import type { Readable } from 'node:stream';
import type { LanguageCode } from '../model/article.js';
import { parseDecimalString, type Decimal } from '../model/decimal.js';
import { XmlEventReader, XmlSyntaxError, type XmlHandler } from './xml-event-reader.js';
import { elementTextLimit, RECORD_LIMITS } from './record-limits.js';
import { bmecatTransaction, type BmecatTransaction } from './bmecat-transaction.js';
import { apiLanguage } from './language-codes.js';
import { mimeTypeOf } from './mime-types.js';

/** An element of one item's subtree. */
interface XmlNode {
  readonly name: string;
  /** Line of the start tag. */
  readonly line: number;
  readonly attributes: Readonly<Record<string, string>>;
  /** `NO_CHILDREN` until the first child: most elements are leaves, and each empty array is garbage. */
  children: readonly XmlNode[];
  text: string;
}

const NO_CHILDREN: readonly XmlNode[] = Object.freeze([]);

/** One catalog item read from BMEcat: its start line and our JSON record shape, or why it was refused. */
export type BmecatItem =
  | { readonly line: number; readonly record: Record<string, unknown>; readonly mode?: string }
  | { readonly line: number; readonly error: string; readonly path?: string };

/** Local names of the item elements: `ARTICLE` (BMEcat 1.2) and `PRODUCT` (2005). */
export const ITEM_ELEMENTS: ReadonlySet<string> = new Set(['ARTICLE', 'PRODUCT']);

/**
 * What the header gives every item: the default language of texts, the currency of prices without
 * one and the `MIME_ROOT` that relative media sources are relative to.
 */
export interface BmecatDefaults {
  readonly language: LanguageCode;
  readonly currency: string | undefined;
  readonly mimeRoot?: string;
}

/**
 * Streams the items (`ARTICLE` in BMEcat 1.2, `PRODUCT` in 2005, any namespace prefix) of a
 * BMEcat file as records of our JSON Lines article shape, one at a time: only the current item's
 * subtree is in memory. The header's `LANGUAGE` (default one in 2005) labels texts without `lang`;
 * its `CURRENCY` is used when a price has none. Each item carries its `mode` attribute, if any.
 * Validation (unit codes, required fields) is left to `parseArticleRecord`.
 *
 * @throws XmlSyntaxError for malformed XML (the import stops there).
 */
export async function* readBmecat(input: Readable): AsyncGenerator<BmecatItem> {
  const reader = new BmecatItemReader();
  input.setEncoding('utf8');
  for await (const chunk of input) yield* reader.feed(chunk as string);
  reader.end();
}

/** `readBmecat` for pushed text: `feed` returns the items the text completed. */
export class BmecatItemReader {
  readonly #reader = new XmlEventReader();
  readonly #builder = new ItemBuilder();

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

  constructor(defaults: BmecatDefaults = { language: 'de', currency: undefined }) {
    this.#defaultLanguage = defaults.language;
    this.#headerCurrency = defaults.currency;
    this.#mimeRoot = defaults.mimeRoot;
    this.#defaults = defaults;
  }

  /** The header's defaults as read so far (one object while they stay the same: every item gets it). */
  get defaults(): BmecatDefaults {
    const d = this.#defaults;
    if (d.language === this.#defaultLanguage && d.currency === this.#headerCurrency && d.mimeRoot === this.#mimeRoot)
      return d;
    this.#defaults = {
      language: this.#defaultLanguage,
      currency: this.#headerCurrency,
      ...(this.#mimeRoot !== undefined ? { mimeRoot: this.#mimeRoot } : {}),
    };
    return this.#defaults;
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
      for (const key in attributes) this.#itemChars += key.length + (attributes[key]?.length ?? 0) + 4;
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
      this.#itemLine = line;
      this.#itemChars = 2 * name.length + 5;
      this.#itemElements = 1;
      stack.push({ name, line, attributes, children: NO_CHILDREN, text: '' });
      return;
    }
    this.#path.push(name);
    this.#headerText = '';
    this.#headerLine = line;
    this.#transaction ??= bmecatTransaction(name);
    if (name === 'LANGUAGE') this.#languageIsDefault = attributes.default === 'true';
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
    // Room for the whitespace around a value; the value itself is measured trimmed when the element ends.
    if (top.text.length + text.length > elementTextLimit(top.name) + 1024) {
      this.#refuseText(top);
      return;
    }
    if (this.#itemChars > RECORD_LIMITS.recordChars) {
      this.#refuse(top, `the item is longer than ${RECORD_LIMITS.recordChars} characters`);
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
      const name = this.#path.pop();
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
    if (!this.#refused && node.text.length > elementTextLimit(node.name)) {
      if (node.text.trim().length > elementTextLimit(node.name)) {
        stack.push(node);
        this.#refuseText(node);
        stack.pop();
      }
    }
    if (stack.length > 0) return;
    const refused = this.#refused;
    this.#refused = undefined;
    this.#items.push(
      refused
        ? { line: this.#itemLine, error: refused.message, path: refused.path }
        : toItem(node, this.#itemLine, this.defaults),
    );
  }
}

const text = (node: XmlNode | undefined): string | undefined => node?.text.trim();
const language = (code: string | undefined, fallback: LanguageCode): LanguageCode =>
  code === undefined || code === '' ? fallback : apiLanguage(code);

/** Adds the non-empty texts of `node` to `out`, labelled with its `lang` (or `fallback`). */
function addLabelled(out: { lang: LanguageCode; value: string }[], node: XmlNode, fallback: LanguageCode): void {
  const value = node.text.trim();
  if (value !== '') out.push({ lang: language(node.attributes.lang, fallback), value });
}

// Each element's children are looked at once, in one switch: this runs for every item of files
// with millions of them. Where BMEcat 1.2 and 2005 name an element differently, the 1.2 name
// wins when both are present, and lists take the 1.2 elements first.

/** The children of an item that the record uses. */
function itemParts(item: XmlNode) {
  let aid: XmlNode | undefined;
  let pid: XmlNode | undefined;
  let articleDetails: XmlNode | undefined;
  let productDetails: XmlNode | undefined;
  let articleOrder: XmlNode | undefined;
  let productOrder: XmlNode | undefined;
  const articlePrices: XmlNode[] = [];
  const productPrices: XmlNode[] = [];
  const features: XmlNode[] = [];
  const productFeatures: XmlNode[] = [];
  let mime: XmlNode | undefined;
  let logistics: XmlNode | undefined;
  const references: XmlNode[] = [];
  const productReferences: XmlNode[] = [];
  for (const c of item.children) {
    switch (c.name) {
      case 'SUPPLIER_AID':
        aid ??= c;
        break;
      case 'SUPPLIER_PID':
        pid ??= c;
        break;
      case 'ARTICLE_DETAILS':
        articleDetails ??= c;
        break;
      case 'PRODUCT_DETAILS':
        productDetails ??= c;
        break;
      case 'ARTICLE_ORDER_DETAILS':
        articleOrder ??= c;
        break;
      case 'PRODUCT_ORDER_DETAILS':
        productOrder ??= c;
        break;
      case 'ARTICLE_PRICE_DETAILS':
        articlePrices.push(c);
        break;
      case 'PRODUCT_PRICE_DETAILS':
        productPrices.push(c);
        break;
      case 'ARTICLE_FEATURES':
        features.push(c);
        break;
      case 'PRODUCT_FEATURES':
        productFeatures.push(c);
        break;
      case 'MIME_INFO':
        mime ??= c;
        break;
      case 'PRODUCT_LOGISTIC_DETAILS':
        logistics ??= c;
        break;
      case 'ARTICLE_REFERENCE':
        references.push(c);
        break;
      case 'PRODUCT_REFERENCE':
        productReferences.push(c);
        break;
    }
  }
  return {
    supplierId: aid ?? pid,
    details: articleDetails ?? productDetails,
    order: articleOrder ?? productOrder,
    priceDetails: articlePrices.concat(productPrices),
    features: features.concat(productFeatures),
    mime,
    logistics,
    references: references.concat(productReferences),
  };
}

interface Price {
  readonly lowerBound: number;
  readonly amount: Decimal | undefined;
  readonly currency: string | undefined;
  readonly tax: Decimal | undefined;
}

/** The ladder with when and where it applies: the `DATETIME`s of its price details and its prices' `TERRITORY`s. */
interface Ladder {
  readonly prices: Price[];
  readonly conditions: Record<string, unknown> | undefined;
}

/**
 * The price ladder: `net_customer` prices, else `net_list` ones, by lower bound; with the validity
 * dates of the price details that hold them and the territories of those prices.
 */
function ladderOf(priceDetails: readonly XmlNode[], currency: string | undefined): Ladder {
  const customer: XmlNode[] = [];
  const list: XmlNode[] = [];
  let customerDetails: XmlNode | undefined;
  let listDetails: XmlNode | undefined;
  for (const details of priceDetails) {
    const article: XmlNode[] = [];
    const product: XmlNode[] = [];
    for (const p of details.children) {
      if (p.name === 'ARTICLE_PRICE') article.push(p);
      else if (p.name === 'PRODUCT_PRICE') product.push(p);
    }
    for (const p of article.concat(product)) {
      const type = p.attributes.price_type;
      if (type === 'net_customer') {
        customer.push(p);
        customerDetails ??= details;
      } else if (type === 'net_list') {
        list.push(p);
        listDetails ??= details;
      }
    }
  }
  let territories: Set<string> | undefined; // most prices have none
  const ladder = (customer.length > 0 ? customer : list).map((p): Price => {
    let lowerBound: XmlNode | undefined;
    let amount: XmlNode | undefined;
    let priceCurrency: XmlNode | undefined;
    let tax: XmlNode | undefined;
    for (const c of p.children) {
      switch (c.name) {
        case 'LOWER_BOUND':
          lowerBound ??= c;
          break;
        case 'PRICE_AMOUNT':
          amount ??= c;
          break;
        case 'PRICE_CURRENCY':
          priceCurrency ??= c;
          break;
        case 'TAX':
          tax ??= c;
          break;
        case 'TERRITORY': {
          const territory = c.text.trim();
          if (territory !== '') (territories ??= new Set()).add(territory);
          break;
        }
      }
    }
    return {
      lowerBound: integer(text(lowerBound)) ?? 1,
      amount: decimalOf(text(amount)),
      currency: text(priceCurrency) ?? currency,
      tax: taxOf(text(tax)),
    };
  });
  ladder.sort((a, b) => a.lowerBound - b.lowerBound);
  return { prices: ladder, conditions: conditionsOf(customer.length > 0 ? customerDetails : listDetails, territories) };
}

/** `priceConditions` of a ladder; undefined when the catalog says nothing of when or where. */
function conditionsOf(
  details: XmlNode | undefined,
  territories: ReadonlySet<string> | undefined,
): Record<string, unknown> | undefined {
  let validFrom: string | undefined;
  let validUntil: string | undefined;
  for (const c of details?.children ?? []) {
    if (c.name !== 'DATETIME') continue;
    if (c.attributes.type === 'valid_start_date') validFrom ??= dateTimeOf(c);
    else if (c.attributes.type === 'valid_end_date') validUntil ??= dateTimeOf(c);
  }
  if (validFrom === undefined && validUntil === undefined && territories === undefined) return undefined;
  return {
    ...(validFrom !== undefined ? { validFrom } : {}),
    ...(validUntil !== undefined ? { validUntil } : {}),
    territories: territories ? [...territories] : [],
  };
}

/** A BMEcat `DATETIME` (`DATE`, optional `TIME` and `TIMEZONE`) as ISO 8601: `2001-01-01` or `2001-01-01T08:00:00Z`. */
function dateTimeOf(node: XmlNode): string | undefined {
  let date: string | undefined;
  let time: string | undefined;
  let zone: string | undefined;
  for (const c of node.children) {
    if (c.name === 'DATE') date ??= c.text.trim();
    else if (c.name === 'TIME') time ??= c.text.trim();
    else if (c.name === 'TIMEZONE') zone ??= c.text.trim();
  }
  if (!date) return undefined;
  return time ? `${date}T${time}${zone ?? ''}` : date;
}

/** The record fields that `ARTICLE_DETAILS` / `PRODUCT_DETAILS` give. */
function detailsOf(details: XmlNode | undefined, lang: LanguageCode) {
  const descriptions: { lang: LanguageCode; value: string }[] = [];
  const descriptionsLong: { lang: LanguageCode; value: string }[] = [];
  const keywords = new Map<LanguageCode, string[]>();
  const internationalIds: { type: string; value: string }[] = [];
  let ean: XmlNode | undefined;
  let manufacturerName: XmlNode | undefined;
  let manufacturerAid: XmlNode | undefined;
  let manufacturerPid: XmlNode | undefined;
  let deliveryTime: XmlNode | undefined;
  let alternativeId: XmlNode | undefined;
  const buyerIds: { type: string; value: string }[] = [];
  const statuses: { type: string; value: string }[] = [];
  const treatments: { type: string; value: string }[] = [];
  const remarks: { lang: LanguageCode; value: string }[] = [];
  for (const c of details?.children ?? []) {
    switch (c.name) {
      case 'DESCRIPTION_SHORT':
        addLabelled(descriptions, c, lang);
        break;
      case 'DESCRIPTION_LONG':
        addLabelled(descriptionsLong, c, lang);
        break;
      case 'KEYWORD': {
        const value = c.text.trim();
        if (value === '') break;
        const l = language(c.attributes.lang, lang);
        const values = keywords.get(l);
        if (values) values.push(value);
        else keywords.set(l, [value]);
        break;
      }
      case 'EAN':
        ean ??= c;
        break;
      case 'INTERNATIONAL_PID':
        internationalIds.push({
          type: c.attributes.type ?? 'gtin',
          value: c.text.trim(),
        });
        break;
      case 'MANUFACTURER_NAME':
        manufacturerName ??= c;
        break;
      case 'MANUFACTURER_AID':
        manufacturerAid ??= c;
        break;
      case 'MANUFACTURER_PID':
        manufacturerPid ??= c;
        break;
      case 'DELIVERY_TIME':
        deliveryTime ??= c;
        break;
      case 'SUPPLIER_ALT_AID':
      case 'SUPPLIER_ALT_PID':
        alternativeId ??= c;
        break;
      case 'BUYER_AID':
      case 'BUYER_PID':
        addTyped(buyerIds, c);
        break;
      case 'ARTICLE_STATUS':
      case 'PRODUCT_STATUS':
        addTyped(statuses, c);
        break;
      case 'SPECIAL_TREATMENT_CLASS':
        addTyped(treatments, c);
        break;
      case 'REMARKS':
        addLabelled(remarks, c, lang);
        break;
    }
  }
  const eanText = text(ean);
  if (eanText) internationalIds.unshift({ type: 'gtin', value: eanText });
  return {
    descriptions,
    descriptionsLong,
    keywords: [...keywords].map(([l, values]) => ({ lang: l, values })),
    internationalArticleIds: internationalIds,
    manufacturerName: text(manufacturerName),
    manufacturerArticleId: text(manufacturerAid ?? manufacturerPid),
    deliveryTime,
    supplierAlternativeArticleId: text(alternativeId) || undefined,
    buyerArticleIds: buyerIds,
    statuses,
    specialTreatmentClasses: treatments,
    remarks,
  };
}

/** The customs tariff number and country of origin of `PRODUCT_LOGISTIC_DETAILS` (2005), when given. */
function addLogistics(record: Record<string, unknown>, logistics: XmlNode): void {
  for (const c of logistics.children) {
    if (c.name === 'COUNTRY_OF_ORIGIN' && c.text.trim() !== '') record.countryOfOrigin ??= c.text.trim();
    else if (c.name === 'CUSTOMS_TARIFF_NUMBER')
      for (const n of c.children)
        if (n.name === 'CUSTOMS_NUMBER' && n.text.trim() !== '') record.customsTariffNumber ??= n.text.trim();
  }
}

/** Adds `{type, value}` of an element with a `type` attribute, when it has text. */
function addTyped(out: { type: string; value: string }[], node: XmlNode): void {
  const value = node.text.trim();
  if (value !== '') out.push({ type: node.attributes.type ?? '', value });
}

function orderDetailsOf(order: XmlNode | undefined, deliveryTime: XmlNode | undefined): Record<string, unknown> {
  let orderUnit: XmlNode | undefined;
  let contentUnit: XmlNode | undefined;
  let perOrderUnit: XmlNode | undefined;
  let minimum: XmlNode | undefined;
  let interval: XmlNode | undefined;
  let priceQuantity: XmlNode | undefined;
  for (const c of order?.children ?? []) {
    switch (c.name) {
      case 'ORDER_UNIT':
        orderUnit ??= c;
        break;
      case 'CONTENT_UNIT':
        contentUnit ??= c;
        break;
      case 'NO_CU_PER_OU':
        perOrderUnit ??= c;
        break;
      case 'QUANTITY_MIN':
        minimum ??= c;
        break;
      case 'QUANTITY_INTERVAL':
        interval ??= c;
        break;
      case 'PRICE_QUANTITY':
        priceQuantity ??= c;
        break;
    }
  }
  const details: Record<string, unknown> = { orderUnit: text(orderUnit) };
  // Members in the order of our record shape, optional ones only when given.
  if (contentUnit) details.contentUnit = text(contentUnit);
  if (perOrderUnit) details.numberOfContentUnitsPerOrderUnit = decimalOf(text(perOrderUnit));
  details.minimumOrderQuantity = integer(text(minimum)) ?? 1;
  details.orderQuantityInterval = integer(text(interval)) ?? 1;
  details.priceQuantity = integer(text(priceQuantity)) ?? 1;
  if (deliveryTime) details.deliveryTime = integer(text(deliveryTime));
  return details;
}

/**
 * A feature group with a reference system (`ARTICLE_FEATURES` / `PRODUCT_FEATURES`) as a classification; undefined
 * without one.
 */
function classificationOf(group: XmlNode, lang: LanguageCode): Record<string, unknown> | undefined {
  let systemName: XmlNode | undefined;
  let groupId: XmlNode | undefined;
  const features: Record<string, unknown>[] = [];
  for (const c of group.children) {
    if (c.name === 'REFERENCE_FEATURE_SYSTEM_NAME') systemName ??= c;
    else if (c.name === 'REFERENCE_FEATURE_GROUP_ID') groupId ??= c;
    else if (c.name === 'FEATURE') featuresOf(c, lang, features);
  }
  if (!systemName) return undefined;
  return {
    systemName: text(systemName),
    groupId: text(groupId)?.replaceAll('-', ''),
    features,
  };
}

/**
 * Adds a `FEATURE`'s entries to `out`: one language-neutral entry, or, when its names or values
 * carry `lang` (BMEcat 2005), one entry per language, with that language's name (else the name
 * without `lang`, labelled with the default language) and values (plus the values without `lang`).
 */
function featuresOf(feature: XmlNode, lang: LanguageCode, out: Record<string, unknown>[]): void {
  const names: XmlNode[] = [];
  const values: XmlNode[] = [];
  let unit: XmlNode | undefined;
  let order: XmlNode | undefined;
  let labelled = false;
  for (const f of feature.children) {
    switch (f.name) {
      case 'FNAME':
        names.push(f);
        labelled ||= f.attributes.lang !== undefined;
        break;
      case 'FVALUE':
        values.push(f);
        labelled ||= f.attributes.lang !== undefined;
        break;
      case 'FUNIT':
        unit ??= f;
        break;
      case 'FORDER':
        order ??= f;
        break;
    }
  }
  const position = integer(text(order)) ?? out.length + 1;
  const entry = (name: XmlNode | undefined, of: readonly XmlNode[], l?: LanguageCode) => {
    const feature: Record<string, unknown> = { name: text(name) ?? '', values: of.map((v) => v.text.trim()) };
    if (l !== undefined) feature.lang = l;
    feature.order = position;
    if (unit) feature.unit = text(unit);
    out.push(feature);
  };
  // Language-neutral features (the usual case) stay neutral.
  if (!labelled) return entry(names[0], values);
  const languages: LanguageCode[] = [];
  // The languages of the names, and of the values that have one (a value without `lang` is neutral: a number, a code).
  for (const node of names) {
    const l = language(node.attributes.lang, lang);
    if (!languages.includes(l)) languages.push(l);
  }
  for (const node of values) {
    if (node.attributes.lang === undefined) continue;
    const l = language(node.attributes.lang, lang);
    if (!languages.includes(l)) languages.push(l);
  }
  const inLanguage = (node: XmlNode, l: LanguageCode) => language(node.attributes.lang, lang) === l;
  for (const l of languages) {
    const name = names.find((n) => inLanguage(n, l)) ?? names.find((n) => !n.attributes.lang) ?? names[0];
    entry(
      name,
      values.filter((v) => v.attributes.lang === undefined || inLanguage(v, l)),
      l,
    );
  }
}

/**
 * Every `MIME` of `MIME_INFO` (images, data sheets, safety data sheets ...) with its purpose,
 * descriptions and alternative texts; relative sources resolved against the header's `MIME_ROOT`.
 * Several `MIME_SOURCE`s with `lang` (2005) become `hrefs`; a missing `MIME_TYPE` is taken from
 * the source's file extension.
 */
function mediaOf(
  mimeInfo: XmlNode | undefined,
  lang: LanguageCode,
  root: string | undefined,
): Record<string, unknown>[] {
  const media: Record<string, unknown>[] = [];
  for (const m of mimeInfo?.children ?? []) {
    if (m.name !== 'MIME') continue;
    let type: XmlNode | undefined;
    let purpose: XmlNode | undefined;
    const sources: { lang: LanguageCode; value: string }[] = [];
    const descriptions: { lang: LanguageCode; value: string }[] = [];
    const alts: { lang: LanguageCode; value: string }[] = [];
    for (const c of m.children) {
      switch (c.name) {
        case 'MIME_TYPE':
          type ??= c;
          break;
        case 'MIME_SOURCE':
          addLabelled(sources, c, lang);
          break;
        case 'MIME_PURPOSE':
          purpose ??= c;
          break;
        case 'MIME_DESCR':
          addLabelled(descriptions, c, lang);
          break;
        case 'MIME_ALT':
          addLabelled(alts, c, lang);
          break;
      }
    }
    const source = sources.find((x) => x.lang === lang) ?? sources[0];
    if (source === undefined) continue; // nothing to show
    const href = resolveSource(source.value, root);
    const entry: Record<string, unknown> = {
      mimeType: text(type) || mimeTypeOf(href),
      href,
      purpose: text(purpose) || 'normal',
      descriptions,
    };
    if (alts.length > 0) entry.alts = alts;
    if (sources.length > 1) entry.hrefs = sources.map((x) => ({ lang: x.lang, value: resolveSource(x.value, root) }));
    media.push(entry);
  }
  return media;
}

/** `source` against `MIME_ROOT`: unchanged when it has a scheme (`https:`, `data:`) or there is no root. */
export function resolveSource(source: string, root: string | undefined): string {
  if (root === undefined || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(source)) return source;
  return `${root.replace(/\/+$/, '')}/${source.replace(/^\/+/, '')}`;
}

function toItem(item: XmlNode, line: number, defaults: BmecatDefaults): BmecatItem {
  const lang = defaults.language;
  // The item's `mode` (new, update, delete) is applied with the transaction (`finishCatalogItem`).
  const mode = item.attributes.mode;
  const parts = itemParts(item);
  const { prices: ladder, conditions } = ladderOf(parts.priceDetails, defaults.currency);
  const details = detailsOf(parts.details, lang);
  const classifications: Record<string, unknown>[] = [];
  for (const group of parts.features) {
    const c = classificationOf(group, lang);
    if (c) classifications.push(c);
  }
  const record: Record<string, unknown> = {
    supplierArticleId: text(parts.supplierId),
    description: (details.descriptions.find((d) => d.lang === lang) ?? details.descriptions[0])?.value,
    descriptions: details.descriptions,
    descriptionsLong: details.descriptionsLong,
    manufacturerName: details.manufacturerName,
    manufacturerArticleId: details.manufacturerArticleId,
    internationalArticleIds: details.internationalArticleIds,
    keywords: details.keywords,
    currency: ladder[0]?.currency,
    tax: ladder[0]?.tax,
    blockPrices: ladder.map((p) => ({
      lowerBound: p.lowerBound,
      amount: p.amount,
    })),
    specialTaxes: [],
    orderDetails: orderDetailsOf(parts.order, details.deliveryTime),
    classifications,
    images: mediaOf(parts.mime, lang, defaults.mimeRoot),
    // By the referenced item's supplier id: the record check makes it an article id of the shop.
    references: parts.references.map((r) => {
      let to: XmlNode | undefined;
      let prodTo: XmlNode | undefined;
      for (const c of r.children) {
        if (c.name === 'ART_ID_TO') to ??= c;
        else if (c.name === 'PROD_ID_TO') prodTo ??= c;
      }
      return {
        articleReferenceType: r.attributes.type ?? 'others',
        supplierArticleId: text(to ?? prodTo) ?? '',
      };
    }),
  };
  // BMEcat extras, only when the item has them.
  if (details.supplierAlternativeArticleId !== undefined)
    record.supplierAlternativeArticleId = details.supplierAlternativeArticleId;
  if (details.buyerArticleIds.length > 0) record.buyerArticleIds = details.buyerArticleIds;
  if (details.statuses.length > 0) record.statuses = details.statuses;
  if (details.remarks.length > 0) record.remarks = details.remarks;
  if (details.specialTreatmentClasses.length > 0) record.specialTreatmentClasses = details.specialTreatmentClasses;
  if (parts.logistics) addLogistics(record, parts.logistics);
  if (conditions) record.priceConditions = conditions;
  return mode === undefined ? { line, record } : { line, record, mode };
}

function integer(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.0+)?$/.test(text)) return undefined;
  return Number.parseInt(text, 10);
}

function decimalOf(text: string | undefined): Decimal | undefined {
  return text === undefined ? undefined : parseDecimalString(text);
}

/** `0.19` is a factor; a value above 1 (`19`, seen in the wild) is read as a percentage. */
function taxOf(text: string | undefined): Decimal | undefined {
  const d = decimalOf(text);
  if (!d) return undefined;
  return d.value / 10 ** d.decimalDigits > 1 ? { value: d.value, decimalDigits: d.decimalDigits + 2 } : d;
}
