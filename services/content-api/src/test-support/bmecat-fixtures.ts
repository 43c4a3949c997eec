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

/**
 * A supplier's BMEcat 1.2 catalog shaped like the published sample catalogs (written for this
 * project): DOCTYPE naming the DTD, header with generator, several territories, `MIME_ROOT`, buyer,
 * agreement, supplier logo and user-defined extensions; a classification system before the items;
 * units outside the spec's set (`BOX`, `PCE`); alternative and buyer ids, a status, remarks and a
 * special treatment class; prices with validity dates and territories; an image with an
 * alternative text, a data sheet and a safety data sheet; a reference to the second article.
 */
export const SUPPLIER_BMECAT_12 =
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd">
<BMECAT xmlns="http://www.bmecat.org/bmecat/1.2/bmecat_new_catalog" version="1.2">
  <HEADER>
    <GENERATOR_INFO>Werkbank Export 3.1</GENERATOR_INFO>
    <CATALOG>
      <LANGUAGE>ger</LANGUAGE>
      <CATALOG_ID>WB-2024</CATALOG_ID>
      <CATALOG_VERSION>7.2</CATALOG_VERSION>
      <CATALOG_NAME>Werkbank Hauptkatalog</CATALOG_NAME>
      <DATETIME type="generation_date"><DATE>2024-02-01</DATE><TIME>06:30:00</TIME><TIMEZONE>Z</TIMEZONE></DATETIME>
      <TERRITORY>DE</TERRITORY>
      <TERRITORY>CH</TERRITORY>
      <CURRENCY>EUR</CURRENCY>
      <MIME_ROOT>https://media.werkbank.example/bilder/</MIME_ROOT>
      <PRICE_FLAG type="incl_freight">false</PRICE_FLAG>
    </CATALOG>
    <BUYER><BUYER_ID type="buyer">KLINIK-7</BUYER_ID><BUYER_NAME>Klinikum Sieben</BUYER_NAME></BUYER>
    <AGREEMENT>
      <AGREEMENT_ID>RV-88/24</AGREEMENT_ID>
      <DATETIME type="agreement_start_date"><DATE>2024-01-01</DATE></DATETIME>
    </AGREEMENT>
    <SUPPLIER>
      <SUPPLIER_ID type="supplier">WERKBANK</SUPPLIER_ID>
      <SUPPLIER_NAME>Werkbank GmbH</SUPPLIER_NAME>
      <ADDRESS type="supplier"><CITY>Kassel</CITY></ADDRESS>
      <MIME_INFO><MIME><MIME_TYPE>image/png</MIME_TYPE><MIME_SOURCE>werkbank.png</MIME_SOURCE>` +
  `<MIME_PURPOSE>logo</MIME_PURPOSE></MIME></MIME_INFO>
    </SUPPLIER>
    <USER_DEFINED_EXTENSIONS><UDX.WB.REGION>Nord</UDX.WB.REGION></USER_DEFINED_EXTENSIONS>
  </HEADER>
  <T_NEW_CATALOG>
    <CLASSIFICATION_SYSTEM>
      <CLASSIFICATION_SYSTEM_NAME>udf_Werkbank-1.0</CLASSIFICATION_SYSTEM_NAME>
      <CLASSIFICATION_GROUPS>
        <CLASSIFICATION_GROUP type="leaf"><CLASSIFICATION_GROUP_ID>12</CLASSIFICATION_GROUP_ID>` +
  `<CLASSIFICATION_GROUP_NAME>Zangen</CLASSIFICATION_GROUP_NAME></CLASSIFICATION_GROUP>
      </CLASSIFICATION_GROUPS>
    </CLASSIFICATION_SYSTEM>
    <ARTICLE>
      <SUPPLIER_AID>WB-4410</SUPPLIER_AID>
      <ARTICLE_DETAILS>
        <DESCRIPTION_SHORT>Seitenschneider 160 mm &#34;Profi&#34;</DESCRIPTION_SHORT>
        <DESCRIPTION_LONG>Gehärtete Schneiden, Griffe mit Mehrkomponenten-Hüllen.</DESCRIPTION_LONG>
        <EAN>4012345000017</EAN>
        <SUPPLIER_ALT_AID>4410-160</SUPPLIER_ALT_AID>
        <BUYER_AID type="KLINIK-7">MAT-000981</BUYER_AID>
        <MANUFACTURER_AID>SZ-160</MANUFACTURER_AID>
        <MANUFACTURER_NAME>Zangenwerk</MANUFACTURER_NAME>
        <DELIVERY_TIME>4</DELIVERY_TIME>
        <SPECIAL_TREATMENT_CLASS type="GGVS">0000</SPECIAL_TREATMENT_CLASS>
        <KEYWORD>Zange</KEYWORD>
        <KEYWORD>Seitenschneider</KEYWORD>
        <REMARKS>Auslaufmodell ab Herbst</REMARKS>
        <ARTICLE_STATUS type="core_article">Kernsortiment</ARTICLE_STATUS>
      </ARTICLE_DETAILS>
      <ARTICLE_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-5.1</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>21-04-01-06</REFERENCE_FEATURE_GROUP_ID>
        <FEATURE><FNAME>Länge</FNAME><FVALUE>160</FVALUE><FUNIT>MMT</FUNIT></FEATURE>
        <FEATURE><FNAME>Schneidenhärte</FNAME><FVALUE>60</FVALUE><FVALUE>62</FVALUE><FUNIT>HRC</FUNIT></FEATURE>
      </ARTICLE_FEATURES>
      <ARTICLE_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>udf_Werkbank-1.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>12</REFERENCE_FEATURE_GROUP_ID>
      </ARTICLE_FEATURES>
      <ARTICLE_ORDER_DETAILS>
        <ORDER_UNIT>BOX</ORDER_UNIT>
        <CONTENT_UNIT>PCE</CONTENT_UNIT>
        <NO_CU_PER_OU>5</NO_CU_PER_OU>
        <PRICE_QUANTITY>1</PRICE_QUANTITY>
        <QUANTITY_MIN>1</QUANTITY_MIN>
      </ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS>
        <DATETIME type="valid_start_date"><DATE>2024-02-01</DATE><TIME>00:00:00</TIME><TIMEZONE>Z</TIMEZONE></DATETIME>
        <DATETIME type="valid_end_date"><DATE>2024-12-31</DATE></DATETIME>
        <ARTICLE_PRICE price_type="net_customer">
          <PRICE_AMOUNT>71.5</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY><TAX>0.19</TAX>
          <PRICE_FACTOR>1</PRICE_FACTOR><LOWER_BOUND>1</LOWER_BOUND><TERRITORY>DE</TERRITORY><TERRITORY>CH</TERRITORY>
        </ARTICLE_PRICE>
        <ARTICLE_PRICE price_type="net_customer">
          <PRICE_AMOUNT>64.9</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY><TAX>0.19</TAX>
          <PRICE_FACTOR>1</PRICE_FACTOR><LOWER_BOUND>20</LOWER_BOUND><TERRITORY>DE</TERRITORY><TERRITORY>CH</TERRITORY>
        </ARTICLE_PRICE>
      </ARTICLE_PRICE_DETAILS>
      <MIME_INFO>
        <MIME>
          <MIME_TYPE>image/jpeg</MIME_TYPE>
          <MIME_SOURCE>wb-4410.jpg</MIME_SOURCE>
          <MIME_DESCR>Seitenschneider, geschlossen</MIME_DESCR>
          <MIME_ALT>Rot-schwarzer Seitenschneider</MIME_ALT>
          <MIME_PURPOSE>normal</MIME_PURPOSE>
        </MIME>
        <MIME>
          <MIME_TYPE>application/pdf</MIME_TYPE>
          <MIME_SOURCE>datenblaetter/wb-4410.pdf</MIME_SOURCE>
          <MIME_DESCR>Datenblatt</MIME_DESCR>
          <MIME_PURPOSE>data_sheet</MIME_PURPOSE>
        </MIME>
        <MIME>
          <MIME_SOURCE>https://sdb.werkbank.example/wb-4410-sdb.pdf</MIME_SOURCE>
          <MIME_PURPOSE>safety_data_sheet</MIME_PURPOSE>
        </MIME>
      </MIME_INFO>
      <ARTICLE_REFERENCE type="accessories">
        <ART_ID_TO>WB-4411</ART_ID_TO>
      </ARTICLE_REFERENCE>
    </ARTICLE>
    <ARTICLE>
      <SUPPLIER_AID>WB-4411</SUPPLIER_AID>
      <ARTICLE_DETAILS>
        <DESCRIPTION_SHORT>Schutzkappen für Zangen, Paar</DESCRIPTION_SHORT>
        <MANUFACTURER_NAME>Zangenwerk</MANUFACTURER_NAME>
      </ARTICLE_DETAILS>
      <ARTICLE_ORDER_DETAILS><ORDER_UNIT>PAA</ORDER_UNIT></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS>
        <ARTICLE_PRICE price_type="net_list"><PRICE_AMOUNT>3.20</PRICE_AMOUNT><TAX>0.19</TAX></ARTICLE_PRICE>
      </ARTICLE_PRICE_DETAILS>
    </ARTICLE>
  </T_NEW_CATALOG>
</BMECAT>
`;

/**
 * A supplier's BMEcat 2005 catalog in Swedish and English, shaped like the published 2005 sample
 * (written for this project): unprefixed 2005 namespace, DOCTYPE, `MIME_ROOT`, `PRODUCT` items,
 * feature names and values per language, a media source per language, logistic details, a
 * product reference and a status.
 */
export const SUPPLIER_BMECAT_2005 = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE BMECAT SYSTEM "bmecat_2005_tnc.dtd">
<BMECAT xmlns="http://www.bmecat.org/bmecat/2005" version="2005">
  <HEADER>
    <GENERATOR_INFO>Nordvik PIM</GENERATOR_INFO>
    <CATALOG>
      <LANGUAGE default="true">swe</LANGUAGE>
      <LANGUAGE>eng</LANGUAGE>
      <CATALOG_ID>NV-1</CATALOG_ID>
      <CATALOG_VERSION>2.0</CATALOG_VERSION>
      <TERRITORY>SE</TERRITORY>
      <CURRENCY>SEK</CURRENCY>
      <MIME_ROOT>https://cdn.nordvik.example/media</MIME_ROOT>
    </CATALOG>
    <SUPPLIER><SUPPLIER_ID type="supplier">NORDVIK</SUPPLIER_ID><SUPPLIER_NAME>Nordvik AB</SUPPLIER_NAME></SUPPLIER>
  </HEADER>
  <T_NEW_CATALOG>
    <PRODUCT mode="new">
      <SUPPLIER_PID>NV-77</SUPPLIER_PID>
      <PRODUCT_DETAILS>
        <DESCRIPTION_SHORT lang="swe">Arbetshandske nitril</DESCRIPTION_SHORT>
        <DESCRIPTION_SHORT lang="eng">Nitrile work glove</DESCRIPTION_SHORT>
        <INTERNATIONAL_PID type="gtin">7312345000015</INTERNATIONAL_PID>
        <SUPPLIER_ALT_PID>77-M</SUPPLIER_ALT_PID>
        <BUYER_PID type="REGION-SYD">HX-4</BUYER_PID>
        <MANUFACTURER_PID>NG-9</MANUFACTURER_PID>
        <MANUFACTURER_NAME>Nordvik</MANUFACTURER_NAME>
        <KEYWORD lang="swe">handske</KEYWORD>
        <KEYWORD lang="eng">glove</KEYWORD>
        <PRODUCT_STATUS type="new_product">Nyhet</PRODUCT_STATUS>
      </PRODUCT_DETAILS>
      <PRODUCT_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>ETIM-8.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>EC000417</REFERENCE_FEATURE_GROUP_ID>
        <FEATURE>
          <FNAME lang="swe">Färg</FNAME><FNAME lang="eng">Colour</FNAME>
          <FVALUE lang="swe">blå</FVALUE><FVALUE lang="eng">blue</FVALUE>
        </FEATURE>
        <FEATURE>
          <FNAME lang="swe">Storlek</FNAME><FNAME lang="eng">Size</FNAME>
          <FVALUE>9</FVALUE><FORDER>2</FORDER>
        </FEATURE>
      </PRODUCT_FEATURES>
      <PRODUCT_ORDER_DETAILS>
        <ORDER_UNIT>XBX</ORDER_UNIT><CONTENT_UNIT>PR</CONTENT_UNIT><NO_CU_PER_OU>12</NO_CU_PER_OU>
      </PRODUCT_ORDER_DETAILS>
      <PRODUCT_PRICE_DETAILS>
        <PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>249</PRICE_AMOUNT><TAX>0.25</TAX></PRODUCT_PRICE>
      </PRODUCT_PRICE_DETAILS>
      <MIME_INFO>
        <MIME>
          <MIME_TYPE>image/png</MIME_TYPE>
          <MIME_SOURCE lang="swe">sv/nv-77.png</MIME_SOURCE>
          <MIME_SOURCE lang="eng">en/nv-77.png</MIME_SOURCE>
          <MIME_DESCR lang="swe">Handske, blå</MIME_DESCR>
          <MIME_DESCR lang="eng">Glove, blue</MIME_DESCR>
          <MIME_ALT lang="swe">Blå nitrilhandske</MIME_ALT>
          <MIME_ALT lang="eng">Blue nitrile glove</MIME_ALT>
          <MIME_PURPOSE>normal</MIME_PURPOSE>
        </MIME>
      </MIME_INFO>
      <PRODUCT_REFERENCE type="similar"><PROD_ID_TO>NV-78</PROD_ID_TO></PRODUCT_REFERENCE>
      <PRODUCT_LOGISTIC_DETAILS>
        <CUSTOMS_TARIFF_NUMBER><CUSTOMS_NUMBER>40151900</CUSTOMS_NUMBER></CUSTOMS_TARIFF_NUMBER>
        <COUNTRY_OF_ORIGIN>MY</COUNTRY_OF_ORIGIN>
      </PRODUCT_LOGISTIC_DETAILS>
    </PRODUCT>
    <PRODUCT mode="new">
      <SUPPLIER_PID>NV-78</SUPPLIER_PID>
      <PRODUCT_DETAILS>
        <DESCRIPTION_SHORT lang="swe">Arbetshandske latex</DESCRIPTION_SHORT>
        <DESCRIPTION_SHORT lang="tlh">Latex work glove, in an unknown language</DESCRIPTION_SHORT>
      </PRODUCT_DETAILS>
      <PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>
      <PRODUCT_PRICE_DETAILS>
        <PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>199</PRICE_AMOUNT><TAX>0.25</TAX></PRODUCT_PRICE>
      </PRODUCT_PRICE_DETAILS>
    </PRODUCT>
  </T_NEW_CATALOG>
</BMECAT>
`;
