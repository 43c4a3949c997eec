import type { Readable } from 'node:stream';
import type { LanguageCode } from '../model/article.js';
import { parseDecimalString, type Decimal } from '../model/decimal.js';
import { XmlEventReader, type XmlHandler } from './xml-event-reader.js';

/** An element of one item's subtree. */
interface XmlNode {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlNode[];
  text: string;
}

/** One catalog item read from BMEcat: its start line and our JSON record shape, or why it was refused. */
export type BmecatItem = { readonly line: number; readonly record: Record<string, unknown> } | { readonly line: number; readonly error: string };

const ITEM_ELEMENTS = new Set(['ARTICLE', 'PRODUCT']);

const LANGUAGE_CODES: Readonly<Record<string, LanguageCode>> = {
  deu: 'de', ger: 'de', eng: 'en', fra: 'fr', fre: 'fr', nld: 'nl', dut: 'nl', spa: 'es', ita: 'it',
  ces: 'cs', cze: 'cs', gle: 'ga', slk: 'sk', slo: 'sk', pol: 'pl', hun: 'hu',
};

/**
 * Streams the items (`ARTICLE` in BMEcat 1.2, `PRODUCT` in 2005, any namespace prefix) of a
 * BMEcat file as records of our JSON Lines article shape, one at a time: only the current item's
 * subtree is in memory. The header's `LANGUAGE` (default one in 2005) labels texts without `lang`;
 * its `CURRENCY` is used when a price has none. Items with `mode="delete"` are refused.
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
}

/** Builds each item's subtree from the reader's calls and remembers the header's language and currency. */
class ItemBuilder implements XmlHandler {
  #items: BmecatItem[] = [];
  #defaultLanguage: LanguageCode = 'de';
  #headerCurrency: string | undefined;
  readonly #path: string[] = [];
  readonly #stack: XmlNode[] = [];
  #itemLine = 0;
  #headerText = '';
  #languageSeen = false;
  #languageIsDefault = false;
  #defaultChosen = false;

  /** The items completed since the last call. */
  take(): BmecatItem[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  open(name: string, attributes: Readonly<Record<string, string>>, line: number): void {
    this.#path.push(name);
    const stack = this.#stack;
    if (stack.length > 0 || ITEM_ELEMENTS.has(name)) {
      const node: XmlNode = { name, attributes, children: [], text: '' };
      if (stack.length === 0) this.#itemLine = line;
      else stack[stack.length - 1]!.children.push(node);
      stack.push(node);
    }
    this.#headerText = '';
    if (name === 'LANGUAGE') this.#languageIsDefault = attributes.default === 'true';
  }

  text(text: string): void {
    const top = this.#stack[this.#stack.length - 1];
    if (top) top.text += text;
    else this.#headerText += text;
  }

  close(name: string): void {
    this.#path.pop();
    const stack = this.#stack;
    if (stack.length === 0) {
      if (name === 'LANGUAGE' && this.#path.includes('HEADER')) {
        // The one marked default="true" wins (2005); else the first (1.2 has only one).
        const code = LANGUAGE_CODES[this.#headerText.trim().toLowerCase()];
        if (code && !this.#defaultChosen && (this.#languageIsDefault || !this.#languageSeen)) {
          this.#defaultLanguage = code;
          this.#defaultChosen = this.#languageIsDefault;
        }
        this.#languageSeen = true;
      }
      if (name === 'CURRENCY' && this.#path.includes('CATALOG')) this.#headerCurrency = this.#headerText.trim();
      return;
    }
    const node = stack.pop()!;
    if (stack.length === 0) this.#items.push(toItem(node, this.#itemLine, this.#defaultLanguage, this.#headerCurrency));
  }
}

const child = (node: XmlNode | undefined, name: string): XmlNode | undefined => {
  if (!node) return undefined;
  for (const c of node.children) if (c.name === name) return c;
  return undefined;
};
const children = (node: XmlNode | undefined, name: string): XmlNode[] => {
  const out: XmlNode[] = [];
  if (node) for (const c of node.children) if (c.name === name) out.push(c);
  return out;
};
const text = (node: XmlNode | undefined): string | undefined => node?.text.trim();
const language = (code: string | undefined, fallback: LanguageCode): LanguageCode => LANGUAGE_CODES[(code ?? '').toLowerCase()] ?? fallback;
const labelled = (nodes: readonly XmlNode[], lang: LanguageCode): { lang: LanguageCode; value: string }[] => {
  const out: { lang: LanguageCode; value: string }[] = [];
  for (const n of nodes) {
    const value = n.text.trim();
    if (value !== '') out.push({ lang: language(n.attributes.lang, lang), value });
  }
  return out;
};

function toItem(item: XmlNode, line: number, lang: LanguageCode, currency: string | undefined): BmecatItem {
  if (item.attributes.mode === 'delete') return { line, error: 'mode="delete" items are not supported in a full catalog' };
  const details = child(item, 'ARTICLE_DETAILS') ?? child(item, 'PRODUCT_DETAILS');
  const order = child(item, 'ARTICLE_ORDER_DETAILS') ?? child(item, 'PRODUCT_ORDER_DETAILS');
  const priceDetails = [...children(item, 'ARTICLE_PRICE_DETAILS'), ...children(item, 'PRODUCT_PRICE_DETAILS')];
  const prices = priceDetails.flatMap((d) => [...children(d, 'ARTICLE_PRICE'), ...children(d, 'PRODUCT_PRICE')]);
  const chosen = prices.filter((p) => p.attributes.price_type === 'net_customer');
  const ladder = (chosen.length > 0 ? chosen : prices.filter((p) => p.attributes.price_type === 'net_list')).map((p) => ({
    lowerBound: integer(text(child(p, 'LOWER_BOUND'))) ?? 1,
    amount: decimalOf(text(child(p, 'PRICE_AMOUNT'))),
    currency: text(child(p, 'PRICE_CURRENCY')) ?? currency,
    tax: taxOf(text(child(p, 'TAX'))),
  }));
  ladder.sort((a, b) => a.lowerBound - b.lowerBound);
  const descriptions = labelled(children(details, 'DESCRIPTION_SHORT'), lang);
  const keywords = new Map<LanguageCode, string[]>();
  for (const k of labelled(children(details, 'KEYWORD'), lang)) {
    const values = keywords.get(k.lang);
    if (values) values.push(k.value);
    else keywords.set(k.lang, [k.value]);
  }
  const ean = text(child(details, 'EAN'));
  const record: Record<string, unknown> = {
    supplierArticleId: text(child(item, 'SUPPLIER_AID') ?? child(item, 'SUPPLIER_PID')),
    description: (descriptions.find((d) => d.lang === lang) ?? descriptions[0])?.value,
    descriptions,
    descriptionsLong: labelled(children(details, 'DESCRIPTION_LONG'), lang),
    manufacturerName: text(child(details, 'MANUFACTURER_NAME')),
    manufacturerArticleId: text(child(details, 'MANUFACTURER_AID') ?? child(details, 'MANUFACTURER_PID')),
    internationalArticleIds: [
      ...(ean ? [{ type: 'gtin', value: ean }] : []),
      ...children(details, 'INTERNATIONAL_PID').map((n) => ({ type: n.attributes.type ?? 'gtin', value: n.text.trim() })),
    ],
    keywords: [...keywords].map(([l, values]) => ({ lang: l, values })),
    currency: ladder[0]?.currency,
    tax: ladder[0]?.tax,
    blockPrices: ladder.map((p) => ({ lowerBound: p.lowerBound, amount: p.amount })),
    specialTaxes: [],
    orderDetails: {
      orderUnit: text(child(order, 'ORDER_UNIT')),
      ...(child(order, 'CONTENT_UNIT') ? { contentUnit: text(child(order, 'CONTENT_UNIT')) } : {}),
      ...(child(order, 'NO_CU_PER_OU') ? { numberOfContentUnitsPerOrderUnit: decimalOf(text(child(order, 'NO_CU_PER_OU'))) } : {}),
      minimumOrderQuantity: integer(text(child(order, 'QUANTITY_MIN'))) ?? 1,
      orderQuantityInterval: integer(text(child(order, 'QUANTITY_INTERVAL'))) ?? 1,
      priceQuantity: integer(text(child(order, 'PRICE_QUANTITY'))) ?? 1,
      ...(child(details, 'DELIVERY_TIME') ? { deliveryTime: integer(text(child(details, 'DELIVERY_TIME'))) } : {}),
    },
    classifications: [...children(item, 'ARTICLE_FEATURES'), ...children(item, 'PRODUCT_FEATURES')]
      .filter((f) => child(f, 'REFERENCE_FEATURE_SYSTEM_NAME'))
      .map((f) => ({
        systemName: text(child(f, 'REFERENCE_FEATURE_SYSTEM_NAME')),
        groupId: text(child(f, 'REFERENCE_FEATURE_GROUP_ID'))?.replaceAll('-', ''),
        features: children(f, 'FEATURE').map((feature, i) => {
          const name = child(feature, 'FNAME');
          return {
            // A language only when the name says so: language-neutral features stay neutral.
            ...(name?.attributes.lang ? { lang: language(name.attributes.lang, lang) } : {}),
            name: text(name) ?? '',
            values: children(feature, 'FVALUE').map((v) => v.text.trim()),
            ...(child(feature, 'FUNIT') ? { unit: text(child(feature, 'FUNIT')) } : {}),
            order: integer(text(child(feature, 'FORDER'))) ?? i + 1,
          };
        }),
      })),
    images: children(child(item, 'MIME_INFO'), 'MIME')
      .filter((m) => (text(child(m, 'MIME_TYPE')) ?? '').startsWith('image/'))
      .map((m) => ({
        mimeType: text(child(m, 'MIME_TYPE')),
        href: text(child(m, 'MIME_SOURCE')),
        purpose: text(child(m, 'MIME_PURPOSE')) ?? 'normal',
        descriptions: labelled(children(m, 'MIME_DESCR'), lang),
      })),
    references: [...children(item, 'ARTICLE_REFERENCE'), ...children(item, 'PRODUCT_REFERENCE')].map((r) => ({
      articleReferenceType: r.attributes.type ?? 'others',
      refId: text(child(r, 'ART_ID_TO') ?? child(r, 'PROD_ID_TO')) ?? '',
    })),
  };
  return { line, record };
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
