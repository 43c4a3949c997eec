import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseArticleRecord } from '../model/parse-article-record.js';
import { BMECAT_12, BMECAT_2005 } from '../test-support/bmecat-fixtures.js';
import { readBmecat, type BmecatItem } from './bmecat-reader.js';

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
      references: [{ articleReferenceType: 'accessories', refId: 'B-200' }],
    });
    expect(a.images[0]).toMatchObject({
      mimeType: 'image/jpeg',
      href: 'mz100.jpg',
      descriptions: [{ lang: 'de', value: 'Foto' }],
    });
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
});
