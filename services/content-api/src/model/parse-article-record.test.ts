import { describe, expect, it } from 'vitest';
import { parseArticleRecord } from './parse-article-record.js';
import { anyShopTerms } from './shop-price-terms.js';

const record = () => ({
  supplierArticleId: 'S-1',
  description: 'Pen',
  descriptions: [{ lang: 'en', value: 'Pen' }],
  currency: 'EUR',
  tax: { value: 19, decimalDigits: 2 },
  blockPrices: [
    { lowerBound: 1, amount: { value: 250 } },
    { lowerBound: 10, amount: { value: 199, decimalDigits: 2 } },
  ],
  specialTaxes: [{ amount: { value: 5 }, taxType: 'WEEE' }],
  orderDetails: {
    orderUnit: 'PK',
    contentUnit: 'C62',
    numberOfContentUnitsPerOrderUnit: { value: 10 },
    minimumOrderQuantity: 1,
    orderQuantityInterval: 1,
    priceQuantity: 1,
  },
});

describe('parseArticleRecord', () => {
  it('sets id and shop, fills absent lists and gives decimals without decimalDigits the default 0', () => {
    const parsed = parseArticleRecord(record(), 'office');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.article).toMatchObject({
      id: 'office:S-1',
      shopId: 'office',
      keywords: [],
      images: [],
      blockPrices: [
        { lowerBound: 1, amount: { value: 250, decimalDigits: 0 } },
        { lowerBound: 10, amount: { value: 199, decimalDigits: 2 } },
      ],
      specialTaxes: [{ amount: { value: 5, decimalDigits: 0 } }],
      orderDetails: { numberOfContentUnitsPerOrderUnit: { value: 10, decimalDigits: 0 } },
    });
  });

  it('lists every violation with its JSON pointer', () => {
    const bad = {
      ...record(),
      description: '',
      descriptions: [{ lang: 'xx', value: 'a' }, 3],
      blockPrices: [{ lowerBound: 2, amount: { value: 1.5 } }],
      orderDetails: { ...record().orderDetails, orderUnit: 'XYZ', priceQuantity: 0 },
    };
    const parsed = parseArticleRecord(bad, 'office');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.violations.map((v) => v.path)).toEqual([
      '/description',
      '/descriptions/0/lang',
      '/descriptions/1',
      '/blockPrices/0/amount',
      '/orderDetails/orderUnit',
      '/orderDetails/priceQuantity',
    ]);
  });

  it('maps units outside the set and keeps what the provider wrote beside them', () => {
    const parsed = parseArticleRecord(
      { ...record(), orderDetails: { ...record().orderDetails, orderUnit: 'BOX', contentUnit: 'pce' } },
      'office',
    );
    expect(parsed.ok && parsed.article.orderDetails).toEqual({
      orderUnit: 'BX',
      contentUnit: 'H87',
      providerOrderUnit: 'BOX',
      providerContentUnit: 'pce',
      numberOfContentUnitsPerOrderUnit: { value: 10, decimalDigits: 0 },
      minimumOrderQuantity: 1,
      orderQuantityInterval: 1,
      priceQuantity: 1,
    });
  });

  it('keeps codes of the set as written, with no provider units', () => {
    const parsed = parseArticleRecord(
      { ...record(), orderDetails: { ...record().orderDetails, orderUnit: 'STK', contentUnit: 'F01' } },
      'office',
    );
    expect(parsed.ok && parsed.article.orderDetails).not.toHaveProperty('providerOrderUnit');
    expect(parsed.ok && parsed.article.orderDetails).toMatchObject({ orderUnit: 'STK', contentUnit: 'F01' });
  });

  it('refuses a unit that is neither in the set nor mapped, naming it', () => {
    const parsed = parseArticleRecord(
      { ...record(), orderDetails: { ...record().orderDetails, contentUnit: 'PIECE' } },
      'office',
    );
    expect(parsed).toEqual({
      ok: false,
      violations: [
        {
          path: '/orderDetails/contentUnit',
          message: 'unit "PIECE" is neither one of the accepted unit codes nor mapped to one',
        },
      ],
    });
  });

  it('keeps a refId as given and makes a supplierArticleId an article id of the shop', () => {
    const parsed = parseArticleRecord(
      {
        ...record(),
        references: [
          { articleReferenceType: 'similar', refId: 'other:X-1' },
          { articleReferenceType: 'accessories', supplierArticleId: 'S-2' },
        ],
      },
      'office',
    );
    expect(parsed.ok && parsed.article.references).toEqual([
      { articleReferenceType: 'similar', refId: 'other:X-1' },
      { articleReferenceType: 'accessories', refId: 'office:S-2' },
    ]);
    const bad = parseArticleRecord({ ...record(), references: [{ articleReferenceType: 'similar' }] }, 'office');
    expect(!bad.ok && bad.violations.map((v) => v.path)).toEqual(['/references/0']);
  });

  it('refuses what is not an object', () => {
    expect(parseArticleRecord([], 's')).toEqual({
      ok: false,
      violations: [{ path: '', message: 'must be a JSON object' }],
    });
  });
  it('keeps the weight, group names and second group ids, and refuses an empty group name', () => {
    const parsed = parseArticleRecord(
      {
        ...record(),
        weight: { value: 137, decimalDigits: 2 },
        classifications: [
          { systemName: 'udf_Supplier-1.0', groupId: '5', groupName: 'Mac', groupId2: 'mac', features: [] },
        ],
      },
      'office',
    );
    expect(parsed.ok && parsed.article.weight).toEqual({ value: 137, decimalDigits: 2 });
    expect(parsed.ok && parsed.article.classifications[0]).toMatchObject({ groupName: 'Mac', groupId2: 'mac' });
    const refused = parseArticleRecord(
      { ...record(), weight: 1.37, classifications: [{ systemName: 'X', groupId: '1', groupName: '' }] },
      'office',
    );
    expect(refused.ok ? [] : refused.violations.map((v) => v.path)).toEqual([
      '/classifications/0/groupName',
      '/weight',
    ]);
  });

  it('keeps a record whose own prices are not valid now, until their start, and refuses one with other faults', () => {
    const terms = anyShopTerms('office', new Date('2026-06-01T12:00:00Z'));
    const later = parseArticleRecord({ ...record(), priceConditions: { validFrom: '2099-01-01' } }, terms);
    expect(later).toMatchObject({
      ok: false,
      violations: [{ path: '/priceConditions', message: 'the prices are valid from 2099-01-01, not now' }],
      waiting: { searchableFrom: '2099-01-01T00:00:00.000Z', record: { supplierArticleId: 'S-1' } },
    });
    const ended = parseArticleRecord({ ...record(), priceConditions: { validUntil: '2001-12-31' } }, terms);
    expect(!ended.ok && ended.waiting?.record.supplierArticleId).toBe('S-1');
    expect(!ended.ok && ended.waiting?.searchableFrom).toBeUndefined();
    const faulty = parseArticleRecord(
      { ...record(), description: '', priceConditions: { validUntil: '2001-12-31' } },
      terms,
    );
    expect(!faulty.ok && faulty.waiting).toBeUndefined();
    expect(parseArticleRecord({ ...record(), priceConditions: { validUntil: '2026-06-01' } }, terms).ok).toBe(true);
  });
});
