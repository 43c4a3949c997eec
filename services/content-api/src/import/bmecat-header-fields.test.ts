import { describe, expect, it } from 'vitest';
import { BmecatItemReader } from './bmecat-reader.js';
import { UnkeptElements } from './unkept-elements.js';
import { describeCatalogHeader } from '../model/catalog-header.js';

/** Reads a document in one piece and gives the header kept and the elements counted as not kept. */
function read(xml: string) {
  const unkept = new UnkeptElements();
  const reader = new BmecatItemReader(unkept);
  const items = reader.feed(xml);
  reader.end();
  return { catalog: reader.catalog, unkept: unkept.list().map((e) => `${e.path} ${e.count}@${e.line}`), items };
}

const ITEM =
  '<PRODUCT><SUPPLIER_PID>P1</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>x</DESCRIPTION_SHORT>' +
  '</PRODUCT_DETAILS></PRODUCT>';

describe('the catalog header kept', () => {
  it('keeps a BMEcat 2005 header: the first name of several languages, the generation date, buyer and supplier', () => {
    const { catalog, unkept } = read(
      [
        '<?xml version="1.0"?>',
        '<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">',
        '<HEADER><GENERATOR_INFO>PIM 4.2</GENERATOR_INFO>',
        '<CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE>',
        '<CATALOG_ID>WB-2024</CATALOG_ID><CATALOG_VERSION>7.2</CATALOG_VERSION>',
        '<CATALOG_NAME lang="deu">Wälzlager</CATALOG_NAME>',
        '<CATALOG_NAME lang="eng">Bearings</CATALOG_NAME>',
        '<GENERATION_DATE>2024-05-01T08:30:00+02:00</GENERATION_DATE>',
        '<CURRENCY>EUR</CURRENCY></CATALOG>',
        '<BUYER><BUYER_ID type="buyer_specific">B7</BUYER_ID><BUYER_NAME>Shop GmbH</BUYER_NAME></BUYER>',
        '<SUPPLIER><SUPPLIER_ID type="iln">4000001000005</SUPPLIER_ID>',
        '<SUPPLIER_NAME>Wälzlager &amp; Söhne</SUPPLIER_NAME></SUPPLIER></HEADER>',
        `<T_NEW_CATALOG>${ITEM}</T_NEW_CATALOG></BMECAT>`,
      ].join('\n'),
    );
    expect(catalog).toEqual({
      generatorInfo: 'PIM 4.2',
      catalogId: 'WB-2024',
      catalogVersion: '7.2',
      catalogName: 'Wälzlager',
      generationDate: '2024-05-01T08:30:00+02:00',
      buyerName: 'Shop GmbH',
      supplierId: '4000001000005',
      supplierName: 'Wälzlager & Söhne',
    });
    // The second name and the buyer's id are not kept, and say so.
    expect(unkept).toEqual(['HEADER/CATALOG/CATALOG_NAME 1@7', 'HEADER/BUYER/BUYER_ID 1@10']);
    expect(describeCatalogHeader(catalog)).toBe(
      'WB-2024 version 7.2, "Wälzlager", from Wälzlager & Söhne, made 2024-05-01T08:30:00+02:00',
    );
  });

  it('joins a BMEcat 1.2 DATETIME of the generation date, and ignores empty elements', () => {
    const { catalog, unkept } = read(
      '<BMECAT version="1.2"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID> </CATALOG_ID>' +
        '<CATALOG_VERSION>001.000</CATALOG_VERSION><DATETIME type="generation_date"><DATE>2001-06-28</DATE>' +
        '<TIME>12:30:00</TIME><TIMEZONE>+01:00</TIMEZONE></DATETIME></CATALOG>' +
        '<SUPPLIER><SUPPLIER_NAME>Lab</SUPPLIER_NAME></SUPPLIER></HEADER>' +
        '<T_NEW_CATALOG><ARTICLE><SUPPLIER_AID>1</SUPPLIER_AID></ARTICLE></T_NEW_CATALOG></BMECAT>',
    );
    expect(catalog).toEqual({
      catalogVersion: '001.000',
      generationDate: '2001-06-28T12:30:00+01:00',
      supplierName: 'Lab',
    });
    expect(unkept).toEqual([]);
    expect(describeCatalogHeader(catalog)).toBe('version 001.000, from Lab, made 2001-06-28T12:30:00+01:00');
  });

  it('keeps nothing of a header that names no catalog', () => {
    const { catalog } = read(
      '<BMECAT version="1.2"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>' +
        '<T_NEW_CATALOG></T_NEW_CATALOG></BMECAT>',
    );
    expect(catalog).toEqual({});
    expect(describeCatalogHeader(catalog)).toBe('');
  });
});
