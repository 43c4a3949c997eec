import type { Readable } from 'node:stream';
import type { LanguageCode } from '../model/article.js';
import { parseDecimalString, type Decimal } from '../model/decimal.js';
import { XmlEventReader } from './xml-event-reader.js';

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
  const reader = new XmlEventReader();
  let defaultLanguage: LanguageCode = 'de';
  let headerCurrency: string | undefined;
  const path: string[] = [];
  let stack: XmlNode[] = [];
  let itemLine = 0;
  let headerText = '';
  let languageSeen = false;
  let languageIsDefault = false;
  let defaultChosen = false;
  input.setEncoding('utf8');
  for await (const chunk of input) {
    for (const event of reader.write(chunk as string)) {
      if (event.kind === 'open') {
        path.push(event.name);
        if (stack.length > 0 || ITEM_ELEMENTS.has(event.name)) {
          const node: XmlNode = { name: event.name, attributes: event.attributes, children: [], text: '' };
          if (stack.length === 0) itemLine = event.line;
          else stack[stack.length - 1]?.children.push(node);
          stack.push(node);
        }
        headerText = '';
        if (event.name === 'LANGUAGE') languageIsDefault = event.attributes.default === 'true';
      } else if (event.kind === 'text') {
        const top = stack[stack.length - 1];
        if (top) top.text += event.text;
        else headerText += event.text;
      } else {
        path.pop();
        if (stack.length === 0) {
          if (event.name === 'LANGUAGE' && path.includes('HEADER')) {
            // The one marked default="true" wins (2005); else the first (1.2 has only one).
            const code = LANGUAGE_CODES[headerText.trim().toLowerCase()];
            if (code && !defaultChosen && (languageIsDefault || !languageSeen)) {
              defaultLanguage = code;
              defaultChosen = languageIsDefault;
            }
            languageSeen = true;
          }
          if (event.name === 'CURRENCY' && path.includes('CATALOG')) headerCurrency = headerText.trim();
          continue;
        }
        const node = stack.pop() as XmlNode;
        if (stack.length === 0) {
          yield toItem(node, itemLine, defaultLanguage, headerCurrency);
          stack = [];
        }
      }
    }
  }
  reader.end();
}

function toItem(item: XmlNode, line: number, lang: LanguageCode, currency: string | undefined): BmecatItem {
  if (item.attributes.mode === 'delete') return { line, error: 'mode="delete" items are not supported in a full catalog' };
  const child = (node: XmlNode | undefined, name: string) => node?.children.find((c) => c.name === name);
  const children = (node: XmlNode | undefined, name: string) => node?.children.filter((c) => c.name === name) ?? [];
  const text = (node: XmlNode | undefined) => node?.text.trim();
  const labelled = (nodes: XmlNode[]) =>
    nodes.map((n) => ({ lang: LANGUAGE_CODES[(n.attributes.lang ?? '').toLowerCase()] ?? lang, value: n.text.trim() })).filter((s) => s.value !== '');
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
  const descriptions = labelled(children(details, 'DESCRIPTION_SHORT'));
  const keywords = new Map<LanguageCode, string[]>();
  for (const k of labelled(children(details, 'KEYWORD'))) keywords.set(k.lang, [...(keywords.get(k.lang) ?? []), k.value]);
  const ean = text(child(details, 'EAN'));
  const record: Record<string, unknown> = {
    supplierArticleId: text(child(item, 'SUPPLIER_AID') ?? child(item, 'SUPPLIER_PID')),
    description: (descriptions.find((d) => d.lang === lang) ?? descriptions[0])?.value,
    descriptions,
    descriptionsLong: labelled(children(details, 'DESCRIPTION_LONG')),
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
        features: children(f, 'FEATURE').map((feature, i) => ({
          // A language only when the name says so: language-neutral features stay neutral.
          ...(child(feature, 'FNAME')?.attributes.lang ? { lang: LANGUAGE_CODES[(child(feature, 'FNAME')?.attributes.lang ?? '').toLowerCase()] ?? lang } : {}),
          name: text(child(feature, 'FNAME')) ?? '',
          values: children(feature, 'FVALUE').map((v) => v.text.trim()),
          ...(child(feature, 'FUNIT') ? { unit: text(child(feature, 'FUNIT')) } : {}),
          order: integer(text(child(feature, 'FORDER'))) ?? i + 1,
        })),
      })),
    images: children(child(item, 'MIME_INFO'), 'MIME')
      .filter((m) => (text(child(m, 'MIME_TYPE')) ?? '').startsWith('image/'))
      .map((m) => ({
        mimeType: text(child(m, 'MIME_TYPE')),
        href: text(child(m, 'MIME_SOURCE')),
        purpose: text(child(m, 'MIME_PURPOSE')) ?? 'normal',
        descriptions: labelled(children(m, 'MIME_DESCR')),
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
