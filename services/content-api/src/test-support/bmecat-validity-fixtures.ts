/**
 * BMEcat documents whose prices are not all valid now (written for this project): the header is
 * lines 1-5 and the transaction's start tag line 6, so the n-th item starts on line 6 + n.
 */

const HEADER_12 =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<BMECAT version="1.2" xmlns="http://www.bmecat.org/bmecat/1.2/bmecat_new_catalog">\n' +
  '<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>V</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION>' +
  '<CURRENCY>EUR</CURRENCY></CATALOG>\n' +
  '<SUPPLIER><SUPPLIER_NAME>Validity GmbH</SUPPLIER_NAME></SUPPLIER></HEADER>\n\n';

/** A BMEcat 1.2 item on one line, with the price details given (`''`: none). */
export function validityArticle(id: string, description: string, priceDetails: string): string {
  return (
    `<ARTICLE><SUPPLIER_AID>${id}</SUPPLIER_AID><ARTICLE_DETAILS><DESCRIPTION_SHORT>${description}` +
    '</DESCRIPTION_SHORT></ARTICLE_DETAILS><ARTICLE_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT>' +
    `</ARTICLE_ORDER_DETAILS>${priceDetails}</ARTICLE>`
  );
}

/** `ARTICLE_PRICE_DETAILS` with one `net_list` price, valid between the dates given (`undefined`: open). */
export function validityPrices(amount: string | undefined, from?: string, until?: string): string {
  const date = (type: string, value: string | undefined) =>
    value === undefined ? '' : `<DATETIME type="${type}"><DATE>${value}</DATE></DATETIME>`;
  return (
    `<ARTICLE_PRICE_DETAILS>${date('valid_start_date', from)}${date('valid_end_date', until)}` +
    '<ARTICLE_PRICE price_type="net_list">' +
    (amount === undefined ? '' : `<PRICE_AMOUNT>${amount}</PRICE_AMOUNT>`) +
    '<TAX>0.19</TAX><LOWER_BOUND>1</LOWER_BOUND></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>'
  );
}

/** A BMEcat 1.2 document of `transaction` with one item a line. */
export function validityCatalog(transaction: string, items: readonly string[]): string {
  return `${HEADER_12}<${transaction}>\n${items.join('\n')}\n</${transaction}>\n</BMECAT>\n`;
}

/**
 * A whole catalog of four articles: V-NOW priced now, V-2001 whose price ended in 2001, V-2099
 * whose price starts in 2099, V-NOAMOUNT whose price has no `PRICE_AMOUNT` (lines 7 to 10).
 */
export const VALIDITY_CATALOG = validityCatalog('T_NEW_CATALOG', [
  validityArticle('V-NOW', 'Priced now', validityPrices('10.00')),
  validityArticle('V-2001', 'Price ended', validityPrices('11.00', '2001-01-01', '2001-12-31')),
  validityArticle('V-2099', 'Price to come', validityPrices('12.00', '2099-01-01')),
  validityArticle('V-NOAMOUNT', 'No amount', validityPrices(undefined)),
]);

/** BMEcat 2005 product data without prices (`T_NEW_PRODUCTDATA`): two products, lines 5 and 6. */
export const NEW_PRODUCTDATA =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">\n' +
  '<HEADER><CATALOG><LANGUAGE default="true">eng</LANGUAGE><CATALOG_ID>PD</CATALOG_ID>' +
  '<CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>\n' +
  '<T_NEW_PRODUCTDATA>\n' +
  '<PRODUCT><SUPPLIER_PID>PD-1</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Terminal block</DESCRIPTION_SHORT>' +
  '</PRODUCT_DETAILS><PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS></PRODUCT>\n' +
  '<PRODUCT><SUPPLIER_PID>PD-2</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>End plate</DESCRIPTION_SHORT>' +
  '</PRODUCT_DETAILS><PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS></PRODUCT>\n' +
  '</T_NEW_PRODUCTDATA>\n</BMECAT>\n';
