import { describe, expect, it } from 'vitest';
import { BmecatHeaderReader, readBmecatPiece } from './bmecat-pieces.js';
import { BmecatItemReader } from './bmecat-reader.js';
import type { BmecatItem } from './bmecat-item.js';
import { UnkeptElements } from './unkept-elements.js';

/** A BMEcat 2005 catalog (German by default) with `definitions` before its products. */
function catalog(products: string, definitions = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
  <HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE>
    <CATALOG_ID>K</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION><CURRENCY>EUR</CURRENCY></CATALOG></HEADER>
  <T_NEW_CATALOG>${definitions}${products}</T_NEW_CATALOG>
</BMECAT>`;
}

/** A product with `features` (the PRODUCT_FEATURES blocks) and `extra` children. */
function product(id: string, features: string, extra = ''): string {
  return (
    `
    <PRODUCT>
      <SUPPLIER_PID>${id}</SUPPLIER_PID>
      <PRODUCT_DETAILS><DESCRIPTION_SHORT>Klemme ${id}</DESCRIPTION_SHORT><KEYWORD>Klemme</KEYWORD></PRODUCT_DETAILS>
      ${features}
      <PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>
      <PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_customer"><PRICE_AMOUNT>2.50</PRICE_AMOUNT>` +
    `<TAX>0.19</TAX></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>${extra}
    </PRODUCT>`
  );
}

/** Items of a whole document, fed in small chunks as a file stream delivers them. */
function read(xml: string, unkept?: UnkeptElements): BmecatItem[] {
  const reader = new BmecatItemReader(unkept);
  const out: BmecatItem[] = [];
  for (const chunk of xml.match(/[\s\S]{1,40}/g) ?? []) out.push(...reader.feed(chunk));
  reader.end();
  return out;
}

function record(item: BmecatItem | undefined): Record<string, unknown> {
  if (!item || !('record' in item)) throw new Error(`not a record: ${JSON.stringify(item)}`);
  return item.record;
}

const DEFINITIONS =
  `
    <CLASSIFICATION_SYSTEM>
      <CLASSIFICATION_SYSTEM_NAME>eCl@ss 9.0</CLASSIFICATION_SYSTEM_NAME>
      <CLASSIFICATION_GROUPS>
        <CLASSIFICATION_GROUP type="leaf">
          <CLASSIFICATION_GROUP_ID>27-14-11-41</CLASSIFICATION_GROUP_ID>
          <CLASSIFICATION_GROUP_NAME lang="deu">Durchgangsklemme</CLASSIFICATION_GROUP_NAME>
          <CLASSIFICATION_GROUP_NAME lang="eng">Feed-through terminal</CLASSIFICATION_GROUP_NAME>
          <CLASSIFICATION_GROUP_FEATURE_TEMPLATES><CLASSIFICATION_GROUP_FEATURE_TEMPLATE>` +
  `<FT_IDREF>AAF040</FT_IDREF></CLASSIFICATION_GROUP_FEATURE_TEMPLATE></CLASSIFICATION_GROUP_FEATURE_TEMPLATES>
        </CLASSIFICATION_GROUP>
      </CLASSIFICATION_GROUPS>
      <ALLOWED_VALUES>
        <ALLOWED_VALUE><ALLOWED_VALUE_ID>BAA194</ALLOWED_VALUE_ID>` +
  `<ALLOWED_VALUE_NAME lang="deu">Aufbau</ALLOWED_VALUE_NAME>` +
  `<ALLOWED_VALUE_NAME lang="eng">surface</ALLOWED_VALUE_NAME>` +
  `</ALLOWED_VALUE>
      </ALLOWED_VALUES>
      <CLASSIFICATION_SYSTEM_FEATURE_TEMPLATES>
        <FEATURE_TEMPLATE><FT_ID>AAF040</FT_ID><FT_NAME lang="deu">Nettogewicht</FT_NAME>` +
  `<FT_NAME lang="eng">Net weight</FT_NAME><FT_UNIT>KGM</FT_UNIT></FEATURE_TEMPLATE>
        <FEATURE_TEMPLATE><FT_ID>AAN489</FT_ID><FT_NAME>Einbauform</FT_NAME></FEATURE_TEMPLATE>
      </CLASSIFICATION_SYSTEM_FEATURE_TEMPLATES>
    </CLASSIFICATION_SYSTEM>`;

describe('BMEcat features', () => {
  it('keeps the features inside FEATURE_GROUPs, each group a classification in its block’s system', () => {
    const [item] = read(
      catalog(
        product(
          'G-1',
          `<PRODUCT_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>27141141</REFERENCE_FEATURE_GROUP_ID>
        <REFERENCE_FEATURE_GROUP_ID2 type="flat">0173-1---ADVANCED_1_1#01-ABC123#005</REFERENCE_FEATURE_GROUP_ID2>
        <FEATURE><FNAME>Breite</FNAME><FVALUE>5.1</FVALUE><FUNIT>MMT</FUNIT></FEATURE>
        <FEATURE_GROUP>
          <REFERENCE_FEATURE_GROUP_ID>0173-1#01-ABC228#005</REFERENCE_FEATURE_GROUP_ID>
          <FEATURE><FNAME>Hersteller-Name</FNAME><FVALUE>Klemmwerk</FVALUE></FEATURE>
          <FEATURE><FNAME lang="deu">Produktart</FNAME><FNAME lang="eng">Product type</FNAME>` +
            `<FVALUE lang="deu">Schutzleiterklemme</FVALUE><FVALUE lang="eng">PE terminal</FVALUE></FEATURE>
        </FEATURE_GROUP>
      </PRODUCT_FEATURES>`,
        ),
      ),
    );
    expect(record(item).classifications).toEqual([
      {
        systemName: 'ECLASS-9.0',
        groupId: '27141141',
        groupId2: '0173-1---ADVANCED_1_1#01-ABC123#005',
        features: [{ name: 'Breite', values: ['5.1'], order: 1, unit: 'MMT' }],
      },
      {
        systemName: 'ECLASS-9.0',
        groupId: '0173-1#01-ABC228#005',
        features: [
          { name: 'Hersteller-Name', values: ['Klemmwerk'], order: 1 },
          { name: 'Produktart', values: ['Schutzleiterklemme'], lang: 'de', order: 2 },
          { name: 'Product type', values: ['PE terminal'], lang: 'en', order: 2 },
        ],
      },
    ]);
  });

  it('keeps features given without a reference system under the system `none`', () => {
    const [item] = read(
      catalog(
        product(
          'N-1',
          `<PRODUCT_FEATURES><FEATURE><FNAME>Farbe</FNAME><FVALUE>grau</FVALUE></FEATURE></PRODUCT_FEATURES>
      <PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>UNSPSC</REFERENCE_FEATURE_SYSTEM_NAME>` +
            `<REFERENCE_FEATURE_GROUP_ID>39-12-17-02</REFERENCE_FEATURE_GROUP_ID></PRODUCT_FEATURES>
      <PRODUCT_FEATURES></PRODUCT_FEATURES>`,
        ),
      ),
    );
    expect(record(item).classifications).toEqual([
      { systemName: 'none', groupId: 'none', features: [{ name: 'Farbe', values: ['grau'], order: 1 }] },
      { systemName: 'UNSPSC', groupId: '39121702', features: [] },
    ]);
  });

  it('names ECLASS advanced features by their template and values by FVALUE_DETAILS when the file defines none', () => {
    const [item] = read(
      catalog(
        product(
          'A-1',
          `<PRODUCT_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>27141141</REFERENCE_FEATURE_GROUP_ID>
        <FEATURE><FTEMPLATE><FT_ID>0173-1#02-AAN489#003</FT_ID><FT_NAME>Einbauform</FT_NAME></FTEMPLATE>
          <VALUE_IDREF>0173-1#07-BAA194#001</VALUE_IDREF><FVALUE_DETAILS>Aufbau</FVALUE_DETAILS>
          <FID>500012</FID><FPARENT_ID>50001</FPARENT_ID></FEATURE>
        <FEATURE><FTEMPLATE><FT_ID>0173-1#02-AAF040#004</FT_ID><FT_NAME>Nettogewicht</FT_NAME></FTEMPLATE>` +
            `<FVALUE>0.01622</FVALUE></FEATURE>
      </PRODUCT_FEATURES>`,
        ),
      ),
    );
    expect(record(item).classifications).toEqual([
      {
        systemName: 'ECLASS-9.0',
        groupId: '27141141',
        features: [
          { name: 'Einbauform', featureId: '0173-1#02-AAN489#003', values: ['Aufbau'], order: 1 },
          { name: 'Nettogewicht', featureId: '0173-1#02-AAF040#004', values: ['0.01622'], order: 2 },
        ],
      },
    ]);
    expect(item && 'record' in item ? item.warnings : 'none').toBeUndefined();
  });

  it('resolves FT_IDREF, VALUE_IDREF and group names from the catalog’s CLASSIFICATION_SYSTEM', () => {
    const [item] = read(
      catalog(
        product(
          'R-1',
          `<PRODUCT_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>ECLASS_9.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>27141141</REFERENCE_FEATURE_GROUP_ID>
        <FEATURE><FT_IDREF>AAF040</FT_IDREF><FVALUE>0.016</FVALUE></FEATURE>
        <FEATURE><FTEMPLATE><FT_ID>AAN489</FT_ID></FTEMPLATE><VALUE_IDREF>BAA194</VALUE_IDREF></FEATURE>
      </PRODUCT_FEATURES>`,
        ),
        DEFINITIONS,
      ),
    );
    expect(record(item).classifications).toEqual([
      {
        systemName: 'ECLASS-9.0',
        groupId: '27141141',
        groupName: 'Durchgangsklemme',
        features: [
          { name: 'Nettogewicht', featureId: 'AAF040', values: ['0.016'], lang: 'de', order: 1, unit: 'KGM' },
          { name: 'Net weight', featureId: 'AAF040', values: ['0.016'], lang: 'en', order: 1, unit: 'KGM' },
          { name: 'Einbauform', featureId: 'AAN489', values: ['Aufbau'], lang: 'de', order: 3 },
          { name: 'Einbauform', featureId: 'AAN489', values: ['surface'], lang: 'en', order: 3 },
        ],
      },
    ]);
  });

  it('keeps a feature or value the file does not define under its id, and says so', () => {
    const [item] = read(
      catalog(
        product(
          'U-1',
          `<PRODUCT_FEATURES>
        <REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <REFERENCE_FEATURE_GROUP_ID>27141141</REFERENCE_FEATURE_GROUP_ID>
        <FEATURE><FT_IDREF>AAX999</FT_IDREF><VALUE_IDREF>BAX111</VALUE_IDREF></FEATURE>
      </PRODUCT_FEATURES>`,
        ),
        DEFINITIONS,
      ),
    );
    expect(record(item).classifications).toMatchObject([
      { features: [{ name: 'AAX999', featureId: 'AAX999', values: ['BAX111'] }] },
    ]);
    expect(item && 'record' in item ? item.warnings : []).toEqual([
      {
        kind: 'feature-name-unresolved',
        path: 'PRODUCT/PRODUCT_FEATURES/FEATURE',
        linesBelow: 6,
        message: expect.stringContaining('feature AAX999 has no name') as string,
      },
      {
        kind: 'feature-value-unresolved',
        path: 'PRODUCT/PRODUCT_FEATURES/FEATURE/VALUE_IDREF',
        linesBelow: 6,
        message: expect.stringContaining('value BAX111 of feature AAX999 has no name') as string,
      },
    ]);
  });

  it('accepts REFERENCE_FEATURE_GROUP_NAME: the id the file defines for it, else the name itself', () => {
    const items = read(
      catalog(
        product(
          'GN-1',
          `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>` +
            `<REFERENCE_FEATURE_GROUP_NAME lang="deu">Durchgangsklemme</REFERENCE_FEATURE_GROUP_NAME></PRODUCT_FEATURES>
      <PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>Lieferant</REFERENCE_FEATURE_SYSTEM_NAME>` +
            `<REFERENCE_FEATURE_GROUP_NAME>Klemmen</REFERENCE_FEATURE_GROUP_NAME></PRODUCT_FEATURES>`,
        ),
        DEFINITIONS,
      ),
    );
    expect(record(items[0]).classifications).toEqual([
      { systemName: 'ECLASS-9.0', groupId: '27141141', groupName: 'Durchgangsklemme', features: [] },
      { systemName: 'Lieferant', groupId: 'Klemmen', groupName: 'Klemmen', features: [] },
    ]);
  });

  it('keeps a FEATURE without any name with an empty name, and says so', () => {
    const [item] = read(
      catalog(product('E-1', '<PRODUCT_FEATURES><FEATURE><FVALUE>5</FVALUE></FEATURE></PRODUCT_FEATURES>')),
    );
    expect(record(item).classifications).toEqual([
      { systemName: 'none', groupId: 'none', features: [{ name: '', values: ['5'], order: 1 }] },
    ]);
    expect(item && 'record' in item ? item.warnings?.map((w) => w.kind) : []).toEqual(['feature-without-name']);
  });

  it('keeps the weight of PRODUCT_LOGISTIC_DETAILS in kilograms', () => {
    const [item] = read(
      catalog(
        product(
          'W-1',
          '',
          `<PRODUCT_LOGISTIC_DETAILS><PRODUCT_DIMENSIONS><VOLUME>0.001</VOLUME><WEIGHT>1.37</WEIGHT>` +
            `</PRODUCT_DIMENSIONS></PRODUCT_LOGISTIC_DETAILS>`,
        ),
      ),
    );
    expect(record(item).weight).toEqual({ value: 137, decimalDigits: 2 });
  });

  it('hands the definitions of the header to pieces read on their own (another thread)', () => {
    const xml = catalog(
      product(
        'P-1',
        `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>` +
          `<REFERENCE_FEATURE_GROUP_ID>27141141</REFERENCE_FEATURE_GROUP_ID>` +
          `<FEATURE><FT_IDREF>AAN489</FT_IDREF><VALUE_IDREF>BAA194</VALUE_IDREF></FEATURE></PRODUCT_FEATURES>`,
      ),
      DEFINITIONS,
    );
    const header = new BmecatHeaderReader().feed(xml);
    if (!header) throw new Error('no header');
    // Pieces go to worker threads as structured clones.
    const piece = readBmecatPiece(header.rest, structuredClone(header.defaults), header.line);
    expect(record(piece.items[0]).classifications).toMatchObject([
      {
        groupName: 'Durchgangsklemme',
        features: [
          { name: 'Einbauform', values: ['Aufbau'], lang: 'de' },
          { name: 'Einbauform', values: ['surface'], lang: 'en' },
        ],
      },
    ]);
  });
  it('reports the feature elements it reads as imported, the feature hierarchy as not imported', () => {
    const unkept = new UnkeptElements();
    read(
      catalog(
        product(
          'K-1',
          `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>` +
            `<REFERENCE_FEATURE_GROUP_ID>27141141</REFERENCE_FEATURE_GROUP_ID>` +
            `<REFERENCE_FEATURE_GROUP_ID2>X</REFERENCE_FEATURE_GROUP_ID2>` +
            `<FEATURE><FT_IDREF>AAN489</FT_IDREF><VALUE_IDREF>BAX1</VALUE_IDREF>` +
            `<FVALUE_DETAILS>Aufbau</FVALUE_DETAILS>` +
            `<FID>1</FID></FEATURE></PRODUCT_FEATURES>`,
        ),
        DEFINITIONS,
      ),
      unkept,
    );
    expect(unkept.list().map((e) => e.path)).toEqual([
      // CLASSIFICATION_GROUP_FEATURE_TEMPLATES: which features a group has, not read.
      'T_NEW_CATALOG/CLASSIFICATION_SYSTEM/CLASSIFICATION_GROUPS/CLASSIFICATION_GROUP/' +
        'CLASSIFICATION_GROUP_FEATURE_TEMPLATES',
      'PRODUCT/PRODUCT_FEATURES/FEATURE/FID',
    ]);
  });
});
