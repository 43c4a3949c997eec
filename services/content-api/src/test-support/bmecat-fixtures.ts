/**
 * Small BMEcat documents for tests (written for this project). A line longer than the code's width is cut
 * with `` ` + ` `` so it stays one line of the document: tests expect the line numbers as written.
 */

export const BMECAT_12 =
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd">
<BMECAT version="1.2" xmlns="http://www.bmecat.org/bmecat/1.2/bmecat_new_catalog">
  <HEADER>
    <CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>C1</CATALOG_ID>` +
  `<CATALOG_VERSION>1.0</CATALOG_VERSION><CURRENCY>EUR</CURRENCY></CATALOG>
    <SUPPLIER><SUPPLIER_NAME>Labor &amp; Co</SUPPLIER_NAME></SUPPLIER>
  </HEADER>
  <T_NEW_CATALOG>
    <!-- first article -->
    <ARTICLE mode="new">
      <SUPPLIER_AID>B-100</SUPPLIER_AID>
      <ARTICLE_DETAILS>
        <DESCRIPTION_SHORT>Messzylinder 100 ml</DESCRIPTION_SHORT>
        <DESCRIPTION_LONG><![CDATA[<p>Aus <b>Borosilikatglas</b></p>]]></DESCRIPTION_LONG>
        <EAN>4006381333931</EAN>
        <MANUFACTURER_AID>MZ-100</MANUFACTURER_AID>
        <MANUFACTURER_NAME>Glaswerk</MANUFACTURER_NAME>
        <DELIVERY_TIME>3</DELIVERY_TIME>
        <KEYWORD>Zylinder</KEYWORD><KEYWORD>Labor</KEYWORD>
      </ARTICLE_DETAILS>
      <ARTICLE_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>UNSPSC-7</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>41-12-18-06</REFERENCE_FEATURE_GROUP_ID>
        <FEATURE><FNAME>Volumen</FNAME><FVALUE>100</FVALUE><FUNIT>MLT</FUNIT></FEATURE>
      </ARTICLE_FEATURES>
      <ARTICLE_ORDER_DETAILS>
        <ORDER_UNIT>PK</ORDER_UNIT><CONTENT_UNIT>C62</CONTENT_UNIT><NO_CU_PER_OU>6</NO_CU_PER_OU>
        <PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>2</QUANTITY_MIN><QUANTITY_INTERVAL>2</QUANTITY_INTERVAL>
      </ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS>
        <ARTICLE_PRICE price_type="net_customer"><PRICE_AMOUNT>89.00</PRICE_AMOUNT><TAX>0.19</TAX>` +
  `<LOWER_BOUND>10</LOWER_BOUND></ARTICLE_PRICE>
        <ARTICLE_PRICE price_type="net_customer"><PRICE_AMOUNT>90.00</PRICE_AMOUNT>` +
  `<PRICE_CURRENCY>EUR</PRICE_CURRENCY><TAX>19</TAX><LOWER_BOUND>1</LOWER_BOUND></ARTICLE_PRICE>
      </ARTICLE_PRICE_DETAILS>
      <MIME_INFO><MIME><MIME_TYPE>image/jpeg</MIME_TYPE><MIME_SOURCE>mz100.jpg</MIME_SOURCE>` +
  `<MIME_DESCR>Foto</MIME_DESCR><MIME_PURPOSE>normal</MIME_PURPOSE></MIME></MIME_INFO>
      <ARTICLE_REFERENCE type="accessories"><ART_ID_TO>B-200</ART_ID_TO></ARTICLE_REFERENCE>
    </ARTICLE>
    <ARTICLE>
      <SUPPLIER_AID>B-200</SUPPLIER_AID>
      <ARTICLE_DETAILS><DESCRIPTION_SHORT>Stopfen</DESCRIPTION_SHORT></ARTICLE_DETAILS>
      <ARTICLE_ORDER_DETAILS><ORDER_UNIT>PIECE</ORDER_UNIT></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">` +
  `<PRICE_AMOUNT>1.50</PRICE_AMOUNT><TAX>0.19</TAX></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>
    </ARTICLE>
  </T_NEW_CATALOG>
</BMECAT>
`;

export const BMECAT_2005 =
  `<?xml version="1.0" encoding="UTF-8"?>
<bmecat:BMECAT version="2005" xmlns:bmecat="http://www.bmecat.org/bmecat/2005">
  <bmecat:HEADER><bmecat:CATALOG>
    <bmecat:LANGUAGE default="true">eng</bmecat:LANGUAGE><bmecat:LANGUAGE>deu</bmecat:LANGUAGE>` +
  `<bmecat:CURRENCY>EUR</bmecat:CURRENCY>
  </bmecat:CATALOG></bmecat:HEADER>
  <bmecat:T_NEW_CATALOG>
    <bmecat:PRODUCT>
      <bmecat:SUPPLIER_PID>P-1</bmecat:SUPPLIER_PID>
      <bmecat:PRODUCT_DETAILS>
        <bmecat:DESCRIPTION_SHORT lang="eng">Smoke detector</bmecat:DESCRIPTION_SHORT>
        <bmecat:DESCRIPTION_SHORT lang="deu">Rauchmelder</bmecat:DESCRIPTION_SHORT>
        <bmecat:INTERNATIONAL_PID type="gtin">4006381333948</bmecat:INTERNATIONAL_PID>
        <bmecat:MANUFACTURER_PID>RM-1</bmecat:MANUFACTURER_PID>
        <bmecat:MANUFACTURER_NAME>Safe &#x26; Sound</bmecat:MANUFACTURER_NAME>
      </bmecat:PRODUCT_DETAILS>
      <bmecat:PRODUCT_ORDER_DETAILS><bmecat:ORDER_UNIT>C62</bmecat:ORDER_UNIT></bmecat:PRODUCT_ORDER_DETAILS>
      <bmecat:PRODUCT_PRICE_DETAILS>` +
  `<bmecat:PRODUCT_PRICE price_type="net_list"><bmecat:PRICE_AMOUNT>24.90</bmecat:PRICE_AMOUNT>` +
  `<bmecat:TAX>0.19</bmecat:TAX></bmecat:PRODUCT_PRICE></bmecat:PRODUCT_PRICE_DETAILS>
    </bmecat:PRODUCT>
  </bmecat:T_NEW_CATALOG>
</bmecat:BMECAT>
`;
