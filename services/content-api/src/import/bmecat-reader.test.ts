import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseArticleRecord } from '../model/parse-article-record.js';
import { anyShopTerms } from '../model/shop-price-terms.js';
import { BMECAT_12, BMECAT_2005, SUPPLIER_BMECAT_12, SUPPLIER_BMECAT_2005 } from '../test-support/bmecat-fixtures.js';
import { readBmecat } from './bmecat-reader.js';
import type { BmecatItem } from './bmecat-item.js';
import { resolveSource } from './bmecat-media.js';
import { XmlSyntaxError } from './xml-event-reader.js';

async function items(xml: string): Promise<BmecatItem[]> {
  const out: BmecatItem[] = [];
  // Small chunks, as a file stream would deliver them.
  const chunks = xml.match(/[\s\S]{1,50}/g) ?? [];
  for await (const item of readBmecat(Readable.from(chunks))) out.push(item);
  return out;
}

describe('readBmecat', () => {
  it('maps a BMEcat 1.2 article to our record with exact prices ordered by lower bound', async () => {
    const [first] = await items(BMECAT_12);
    expect(first!.line).toBe(10);
    const parsed = parseArticleRecord((first as { record: unknown }).record, 'lab');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const a = parsed.article;
    expect(a).toMatchObject({
      id: 'lab:B-100',
      description: 'Messzylinder 100 ml',
      descriptions: [{ lang: 'de', value: 'Messzylinder 100 ml' }],
      descriptionsLong: [{ lang: 'de', value: '<p>Aus <b>Borosilikatglas</b></p>' }],
      manufacturerName: 'Glaswerk',
      currency: 'EUR',
      tax: { value: 19, decimalDigits: 2 },
      blockPrices: [
        { lowerBound: 1, amount: { value: 9000, decimalDigits: 2 } },
        { lowerBound: 10, amount: { value: 8900, decimalDigits: 2 } },
      ],
      orderDetails: {
        orderUnit: 'PK',
        contentUnit: 'C62',
        numberOfContentUnitsPerOrderUnit: { value: 6, decimalDigits: 0 },
        minimumOrderQuantity: 2,
        orderQuantityInterval: 2,
        deliveryTime: 3,
      },
      classifications: [
        {
          systemName: 'UNSPSC-7',
          groupId: '41121806',
          features: [{ name: 'Volumen', values: ['100'], unit: 'MLT', order: 1 }],
        },
      ],
      internationalArticleIds: [{ type: 'gtin', value: '4006381333931' }],
      keywords: [{ lang: 'de', values: ['Zylinder', 'Labor'] }],
      references: [{ articleReferenceType: 'accessories', refId: 'lab:B-200' }],
    });
    expect(a.images[0]).toMatchObject({
      mimeType: 'image/jpeg',
      href: 'mz100.jpg',
      descriptions: [{ lang: 'de', value: 'Foto' }],
    });
  });

  it('keeps the first of a single-valued element given twice and says where the second is', async () => {
    // The article starts on line 10: the second DESCRIPTION_SHORT is on line 13, MANUFACTURER_NAME 17, ORDER_UNIT 27.
    const twice = BMECAT_12.replace(
      '<DESCRIPTION_SHORT>Messzylinder 100 ml</DESCRIPTION_SHORT>\n',
      '<DESCRIPTION_SHORT>Messzylinder 100 ml</DESCRIPTION_SHORT><DESCRIPTION_SHORT>Zylinder</DESCRIPTION_SHORT>\n',
    )
      .replace(
        '<MANUFACTURER_NAME>Glaswerk</MANUFACTURER_NAME>',
        '<MANUFACTURER_NAME>Glaswerk</MANUFACTURER_NAME>' + '<MANUFACTURER_NAME>Glas AG</MANUFACTURER_NAME>',
      )
      .replace('<ORDER_UNIT>PK</ORDER_UNIT>', '<ORDER_UNIT>PK</ORDER_UNIT><ORDER_UNIT>C62</ORDER_UNIT>');
    const [first] = await items(twice);
    const record = first && 'record' in first ? first.record : {};
    expect(record).toMatchObject({
      description: 'Messzylinder 100 ml',
      descriptions: [{ lang: 'de', value: 'Messzylinder 100 ml' }],
      manufacturerName: 'Glaswerk',
      orderDetails: { orderUnit: 'PK' },
    });
    const warnings = first && 'record' in first ? first.warnings : undefined;
    expect(warnings?.map((w) => [w.kind, w.path, w.linesBelow])).toEqual([
      ['repeated-element', 'ARTICLE/ARTICLE_DETAILS/DESCRIPTION_SHORT', 3],
      ['repeated-element', 'ARTICLE/ARTICLE_DETAILS/MANUFACTURER_NAME', 7],
      ['repeated-element', 'ARTICLE/ARTICLE_ORDER_DETAILS/ORDER_UNIT', 17],
    ]);
    expect(warnings?.[1]?.message).toBe(
      'MANUFACTURER_NAME is given more than once in one ARTICLE_DETAILS, where BMEcat allows one: ' +
        'the first is imported, the others are not',
    );
  });

  it('lets validation refuse an unknown order unit with its pointer', async () => {
    const second = (await items(BMECAT_12))[1]!;
    const parsed = parseArticleRecord((second as { record: unknown }).record, 'lab');
    expect(parsed).toEqual({ ok: false, violations: [expect.objectContaining({ path: '/orderDetails/orderUnit' })] });
  });

  it('reads BMEcat 2005 products with prefixes, languages from lang attributes and the header currency', async () => {
    const [only] = await items(BMECAT_2005);
    const parsed = parseArticleRecord((only as { record: unknown }).record, 'safe');
    expect(parsed.ok && parsed.article).toMatchObject({
      id: 'safe:P-1',
      description: 'Smoke detector',
      descriptions: [
        { lang: 'en', value: 'Smoke detector' },
        { lang: 'de', value: 'Rauchmelder' },
      ],
      manufacturerName: 'Safe & Sound',
      currency: 'EUR',
      blockPrices: [{ lowerBound: 1, amount: { value: 2490, decimalDigits: 2 } }],
    });
  });

  describe('a supplier catalog in the image of the published samples', () => {
    async function articles(xml: string, shopId: string) {
      const out = [];
      // While the catalog's prices are valid (2024-02-01 to 2024-12-31).
      const terms = anyShopTerms(shopId, new Date('2024-06-01T00:00:00Z'));
      for (const item of await items(xml)) out.push(parseArticleRecord((item as { record: unknown }).record, terms));
      return out;
    }

    it('imports every BMEcat 1.2 item, units mapped with the provider units kept', async () => {
      const [first, second] = await articles(SUPPLIER_BMECAT_12, 'wb');
      expect(first!.ok && first!.article.orderDetails).toEqual({
        orderUnit: 'BX',
        providerOrderUnit: 'BOX',
        contentUnit: 'H87',
        providerContentUnit: 'PCE',
        numberOfContentUnitsPerOrderUnit: { value: 5, decimalDigits: 0 },
        minimumOrderQuantity: 1,
        orderQuantityInterval: 1,
        priceQuantity: 1,
        deliveryTime: 4,
      });
      expect(second!.ok && second!.article.orderDetails).toMatchObject({ orderUnit: 'PR', providerOrderUnit: 'PAA' });
    });

    it('keeps every MIME with its purpose, MIME_ROOT applied to relative sources and MIME_ALT as alt', async () => {
      const [first] = await articles(SUPPLIER_BMECAT_12, 'wb');
      expect(first!.ok && first!.article.images).toEqual([
        {
          mimeType: 'image/jpeg',
          href: 'https://media.werkbank.example/bilder/wb-4410.jpg',
          purpose: 'normal',
          descriptions: [{ lang: 'de', value: 'Seitenschneider, geschlossen' }],
          alts: [{ lang: 'de', value: 'Rot-schwarzer Seitenschneider' }],
        },
        {
          mimeType: 'application/pdf',
          href: 'https://media.werkbank.example/bilder/datenblaetter/wb-4410.pdf',
          purpose: 'data_sheet',
          descriptions: [{ lang: 'de', value: 'Datenblatt' }],
        },
        {
          mimeType: 'application/pdf',
          href: 'https://sdb.werkbank.example/wb-4410-sdb.pdf',
          purpose: 'safety_data_sheet',
          descriptions: [],
        },
      ]);
    });

    it('keeps references as article ids of the shop, and the ids, status and price conditions', async () => {
      const [first] = await articles(SUPPLIER_BMECAT_12, 'wb');
      expect(first!.ok && first!.article).toMatchObject({
        description: 'Seitenschneider 160 mm "Profi"',
        references: [{ articleReferenceType: 'accessories', refId: 'wb:WB-4411' }],
        supplierAlternativeArticleId: '4410-160',
        buyerArticleIds: [{ type: 'KLINIK-7', value: 'MAT-000981' }],
        statuses: [{ type: 'core_article', value: 'Kernsortiment' }],
        remarks: [{ lang: 'de', value: 'Auslaufmodell ab Herbst' }],
        specialTreatmentClasses: [{ type: 'GGVS', value: '0000' }],
        priceConditions: { validFrom: '2024-02-01T00:00:00Z', validUntil: '2024-12-31', territories: ['DE', 'CH'] },
        blockPrices: [
          { lowerBound: 1, amount: { value: 715, decimalDigits: 1 } },
          { lowerBound: 20, amount: { value: 649, decimalDigits: 1 } },
        ],
        classifications: [
          {
            systemName: 'ECLASS-5.1',
            groupId: '21040106',
            features: [
              { name: 'Länge', values: ['160'], unit: 'MMT', order: 1 },
              { name: 'Schneidenhärte', values: ['60', '62'], unit: 'HRC', order: 2 },
            ],
          },
          { systemName: 'udf_Werkbank-1.0', groupId: '12', features: [] },
        ],
      });
    });

    it('maps ISO 639-2 catalog languages (B and T forms) to the API codes, Swedish included', async () => {
      const [first] = await articles(SUPPLIER_BMECAT_2005, 'nv');
      expect(first!.ok && first!.article).toMatchObject({
        description: 'Arbetshandske nitril',
        descriptions: [
          { lang: 'sv', value: 'Arbetshandske nitril' },
          { lang: 'en', value: 'Nitrile work glove' },
        ],
        keywords: [
          { lang: 'sv', values: ['handske'] },
          { lang: 'en', values: ['glove'] },
        ],
        orderDetails: { orderUnit: 'BX', providerOrderUnit: 'XBX', contentUnit: 'PR' },
        references: [{ articleReferenceType: 'similar', refId: 'nv:NV-78' }],
        statuses: [{ type: 'new_product', value: 'Nyhet' }],
        supplierAlternativeArticleId: '77-M',
        buyerArticleIds: [{ type: 'REGION-SYD', value: 'HX-4' }],
        customsTariffNumber: '40151900',
        countryOfOrigin: 'MY',
      });
      const [german] = await articles(SUPPLIER_BMECAT_12, 'wb');
      expect(german!.ok && german!.article.descriptions).toEqual([
        { lang: 'de', value: 'Seitenschneider 160 mm "Profi"' },
      ]);
    });

    it('refuses an item with a text in a language the API does not know, naming it', async () => {
      const [, unknown] = await articles(SUPPLIER_BMECAT_2005, 'nv');
      expect(unknown).toEqual({
        ok: false,
        violations: [{ path: '/descriptions/1/lang', message: 'language "tlh" is not one the API knows' }],
      });
    });

    it('keeps feature names and values in every language, neutral values in each', async () => {
      const [first] = await articles(SUPPLIER_BMECAT_2005, 'nv');
      expect(first!.ok && first!.article.classifications[0]!.features).toEqual([
        { lang: 'sv', name: 'Färg', values: ['blå'], order: 1 },
        { lang: 'en', name: 'Colour', values: ['blue'], order: 1 },
        { lang: 'sv', name: 'Storlek', values: ['9'], order: 2 },
        { lang: 'en', name: 'Size', values: ['9'], order: 2 },
      ]);
    });

    it('keeps a media source per language and alternative texts per language', async () => {
      const [first] = await articles(SUPPLIER_BMECAT_2005, 'nv');
      expect(first!.ok && first!.article.images).toEqual([
        {
          mimeType: 'image/png',
          href: 'https://cdn.nordvik.example/media/sv/nv-77.png',
          hrefs: [
            { lang: 'sv', value: 'https://cdn.nordvik.example/media/sv/nv-77.png' },
            { lang: 'en', value: 'https://cdn.nordvik.example/media/en/nv-77.png' },
          ],
          purpose: 'normal',
          descriptions: [
            { lang: 'sv', value: 'Handske, blå' },
            { lang: 'en', value: 'Glove, blue' },
          ],
          alts: [
            { lang: 'sv', value: 'Blå nitrilhandske' },
            { lang: 'en', value: 'Blue nitrile glove' },
          ],
        },
      ]);
    });

    it('refuses a file declaring entities in its DOCTYPE, with the line', async () => {
      const xml = SUPPLIER_BMECAT_12.replace(
        '<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd">',
        '<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd" [\n  <!ENTITY firma "Werkbank GmbH">\n]>',
      );
      await expect(items(xml)).rejects.toThrow(
        /^line 3: the DOCTYPE declares an entity \(<!ENTITY firma "Werkbank GmbH"\.\.\.>\): Triad does not expand entities/,
      );
      await expect(items(xml)).rejects.toBeInstanceOf(XmlSyntaxError);
    });

    it('reads a file whose DOCTYPE declares its UDX elements, as the same file without them', async () => {
      const xml = SUPPLIER_BMECAT_12.replace(
        '<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd">',
        '<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog.dtd" [\n  <!ELEMENT UDX.EDXF.X (#PCDATA)>\n' +
          '  <!ATTLIST UDX.EDXF.X unit CDATA "mm">\n]>',
      );
      const plain = await items(SUPPLIER_BMECAT_12);
      expect(plain.length).toBeGreaterThan(0);
      const declared = await items(xml);
      // Three lines more before the items.
      expect(declared.map(({ line, ...item }) => ({ ...item, line: line - 3 }))).toEqual(plain);
    });
  });

  it('resolves sources against MIME_ROOT only when they are relative', () => {
    expect(resolveSource('a/b.jpg', 'https://m.example/x/')).toBe('https://m.example/x/a/b.jpg');
    expect(resolveSource('/b.jpg', 'https://m.example/x')).toBe('https://m.example/x/b.jpg');
    expect(resolveSource('https://o.example/b.jpg', 'https://m.example/x')).toBe('https://o.example/b.jpg');
    expect(resolveSource('b.jpg', undefined)).toBe('b.jpg');
  });
});
