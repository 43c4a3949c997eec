import type { Article } from '../model/article.js';
import { formatDecimal } from '../model/decimal.js';

/** An article as one JSON Lines record of our import shape (no `id`/`shopId`: the import sets them). */
export function toJsonLinesRecord(article: Article): string {
  const { id: _id, shopId: _shopId, ...record } = article;
  return JSON.stringify(record);
}

/** Lines of a JSON Lines catalog, lazily. */
export function* jsonLinesCatalog(articles: Iterable<Article>): Generator<string> {
  for (const article of articles) yield `${toJsonLinesRecord(article)}\n`;
}

const ISO_639_2: Readonly<Record<string, string>> = {
  de: 'deu',
  en: 'eng',
  fr: 'fra',
  nl: 'nld',
  es: 'spa',
  it: 'ita',
  cs: 'ces',
  ga: 'gle',
  sk: 'slk',
  pl: 'pol',
  hu: 'hun',
};

function escape(text: string): string {
  return text.replace(/[<>&"]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : '&quot;'));
}

/**
 * A BMEcat 2005 document of the articles, lazily, one chunk per article (texts in every language
 * with `lang`, features per classification, net customer block prices, order details, images).
 * `currency` goes in the header. Special taxes are not written (BMEcat has no element for them).
 */
export function* bmecatCatalog(
  articles: Iterable<Article>,
  options: { readonly catalogId: string; readonly currency: string },
): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">\n<HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE><LANGUAGE>fra</LANGUAGE><CATALOG_ID>${escape(options.catalogId)}</CATALOG_ID><CATALOG_VERSION>1.0</CATALOG_VERSION><CURRENCY>${escape(options.currency)}</CURRENCY></CATALOG></HEADER>\n<T_NEW_CATALOG>\n`;
  const ml = (element: string, items: readonly { lang: string; value: string }[]) =>
    items.map((i) => `<${element} lang="${ISO_639_2[i.lang] ?? 'deu'}">${escape(i.value)}</${element}>`).join('');
  for (const a of articles) {
    const od = a.orderDetails;
    const parts = [
      `<PRODUCT><SUPPLIER_PID>${escape(a.supplierArticleId)}</SUPPLIER_PID><PRODUCT_DETAILS>`,
      ml('DESCRIPTION_SHORT', a.descriptions),
      ml('DESCRIPTION_LONG', a.descriptionsLong),
      a.internationalArticleIds
        .map((i) => `<INTERNATIONAL_PID type="${escape(i.type)}">${escape(i.value)}</INTERNATIONAL_PID>`)
        .join(''),
      a.manufacturerArticleId ? `<MANUFACTURER_PID>${escape(a.manufacturerArticleId)}</MANUFACTURER_PID>` : '',
      a.manufacturerName ? `<MANUFACTURER_NAME>${escape(a.manufacturerName)}</MANUFACTURER_NAME>` : '',
      od.deliveryTime !== undefined ? `<DELIVERY_TIME>${od.deliveryTime}</DELIVERY_TIME>` : '',
      a.keywords
        .map((k) =>
          ml(
            'KEYWORD',
            k.values.map((value) => ({ lang: k.lang, value })),
          ),
        )
        .join(''),
      '</PRODUCT_DETAILS>',
      a.classifications
        .map(
          (c) =>
            `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>${escape(c.systemName)}</REFERENCE_FEATURE_SYSTEM_NAME>` +
            `<REFERENCE_FEATURE_GROUP_ID>${escape(c.groupId)}</REFERENCE_FEATURE_GROUP_ID>` +
            // The id only: BMEcat offers the group's id or its name, not both. Its names belong in a
            // CLASSIFICATION_SYSTEM before the products, which this streaming writer cannot know yet.
            c.features
              .map(
                (f) =>
                  `<FEATURE><FNAME${f.lang ? ` lang="${ISO_639_2[f.lang] ?? 'deu'}"` : ''}>${escape(f.name)}</FNAME>` +
                  f.values.map((v) => `<FVALUE>${escape(v)}</FVALUE>`).join('') +
                  (f.unit ? `<FUNIT>${escape(f.unit)}</FUNIT>` : '') +
                  (f.order !== undefined ? `<FORDER>${f.order}</FORDER>` : '') +
                  '</FEATURE>',
              )
              .join('') +
            '</PRODUCT_FEATURES>',
        )
        .join(''),
      `<PRODUCT_ORDER_DETAILS><ORDER_UNIT>${od.orderUnit}</ORDER_UNIT>`,
      od.contentUnit ? `<CONTENT_UNIT>${od.contentUnit}</CONTENT_UNIT>` : '',
      od.numberOfContentUnitsPerOrderUnit
        ? `<NO_CU_PER_OU>${formatDecimal(od.numberOfContentUnitsPerOrderUnit)}</NO_CU_PER_OU>`
        : '',
      `<PRICE_QUANTITY>${od.priceQuantity}</PRICE_QUANTITY><QUANTITY_MIN>${od.minimumOrderQuantity}</QUANTITY_MIN>`,
      `<QUANTITY_INTERVAL>${od.orderQuantityInterval}</QUANTITY_INTERVAL></PRODUCT_ORDER_DETAILS>`,
      '<PRODUCT_PRICE_DETAILS>',
      a.blockPrices
        .map(
          (p) =>
            `<PRODUCT_PRICE price_type="net_customer"><PRICE_AMOUNT>${formatDecimal(p.amount)}</PRICE_AMOUNT>` +
            `<PRICE_CURRENCY>${escape(a.currency)}</PRICE_CURRENCY><TAX>${formatDecimal(a.tax)}</TAX>` +
            `<LOWER_BOUND>${p.lowerBound}</LOWER_BOUND></PRODUCT_PRICE>`,
        )
        .join(''),
      '</PRODUCT_PRICE_DETAILS>',
      a.images.length > 0
        ? '<MIME_INFO>' +
          a.images
            .map(
              (m) =>
                `<MIME><MIME_TYPE>${escape(m.mimeType)}</MIME_TYPE><MIME_SOURCE>${escape(m.href)}</MIME_SOURCE>` +
                ml('MIME_DESCR', m.descriptions) +
                `<MIME_PURPOSE>${escape(m.purpose)}</MIME_PURPOSE></MIME>`,
            )
            .join('') +
          '</MIME_INFO>'
        : '',
      a.references
        .map(
          (r) =>
            `<PRODUCT_REFERENCE type="${escape(r.articleReferenceType)}">` +
            `<PROD_ID_TO>${escape(supplierIdOf(r.refId, a.shopId))}</PROD_ID_TO></PRODUCT_REFERENCE>`,
        )
        .join(''),
      '</PRODUCT>\n',
    ];
    yield parts.join('');
  }
  yield '</T_NEW_CATALOG>\n</BMECAT>\n';
}

/** PROD_ID_TO names the supplier's article id: the import makes it an article id of the shop again. */
function supplierIdOf(articleId: string, shopId: string): string {
  return articleId.startsWith(`${shopId}:`) ? articleId.slice(shopId.length + 1) : articleId;
}
