import { describe, expect, it } from 'vitest';
import { parseShopRecord } from './parse-shop-record.js';

describe('parseShopRecord', () => {
  it('fills every term of a new shop with the documented defaults', () => {
    expect(parseShopRecord('acme', { name: 'Acme', currency: 'CZK' })).toEqual({
      ok: true,
      shop: {
        id: 'acme',
        name: 'Acme',
        currency: 'CZK',
        returnPolicy: {
          returnsAccepted: true,
          returnPeriodDays: 14,
          restockingFee: { value: 0, decimalDigits: 0 },
          conditions: [],
        },
        shippingCosts: { standard: { amount: { value: 0, decimalDigits: 0 }, currency: 'CZK' }, countries: [] },
        minimumOrderValue: { amount: { amount: { value: 0, decimalDigits: 0 }, currency: 'CZK' } },
      },
    });
  });

  it('takes Money without currency as the shop currency and refuses another currency', () => {
    const ok = parseShopRecord('acme', {
      name: 'Acme',
      shippingCosts: { standard: { amount: { value: 495, decimalDigits: 2 } }, countries: ['DE'] },
    });
    expect(ok.ok && ok.shop.shippingCosts.standard).toEqual({
      amount: { value: 495, decimalDigits: 2 },
      currency: 'EUR',
    });
    const bad = parseShopRecord('acme', {
      name: 'Acme',
      minimumOrderValue: { amount: { amount: { value: 25 }, currency: 'USD' } },
    });
    expect(bad.ok ? [] : bad.violations.map((v) => v.path)).toEqual(['/minimumOrderValue/amount/currency']);
  });

  it('reports every violation at once with its JSON pointer', () => {
    const result = parseShopRecord('bad:id', {
      name: '',
      currency: 'euro',
      colour: 'red',
      returnPolicy: {
        returnPeriodDays: -1,
        restockingFee: { value: 150, decimalDigits: 2 },
        conditions: [{ lang: 'xx', value: 'a' }],
      },
      shippingCosts: { countries: ['de'] },
    });
    expect(result.ok ? [] : result.violations.map((v) => v.path).sort()).toEqual(
      [
        '/colour',
        '/currency',
        '/id',
        '/name',
        '/returnPolicy/conditions/0/lang',
        '/returnPolicy/restockingFee',
        '/returnPolicy/returnPeriodDays',
        '/shippingCosts/countries',
      ].sort(),
    );
  });

  it('applies a change section by section over the stored shop and removes members set to null', () => {
    const base = parseShopRecord('acme', {
      name: 'Acme',
      shippingCosts: {
        standard: { amount: { value: 5 } },
        freeShippingFrom: { amount: { value: 100 } },
        countries: ['DE'],
      },
    });
    if (!base.ok) throw new Error('base must parse');
    const changed = parseShopRecord('acme', { shippingCosts: { freeShippingFrom: null } }, base.shop);
    expect(changed.ok && changed.shop.shippingCosts).toEqual({
      standard: { amount: { value: 5, decimalDigits: 0 }, currency: 'EUR' },
      countries: ['DE'],
    });
    expect(changed.ok && changed.shop.name).toBe('Acme');
  });

  it('refuses a currency change that leaves amounts in the old currency', () => {
    const base = parseShopRecord('acme', { name: 'Acme' });
    if (!base.ok) throw new Error('base must parse');
    const changed = parseShopRecord('acme', { currency: 'CZK' }, base.shop);
    expect(changed.ok ? [] : changed.violations.map((v) => v.path)).toEqual([
      '/shippingCosts/standard/currency',
      '/minimumOrderValue/amount/currency',
    ]);
  });

  it('keeps a default tax and price types, keeps them in a change that names neither, removes them with null', () => {
    const added = parseShopRecord('acme', {
      name: 'Acme',
      defaultTax: { value: 19, decimalDigits: 2 },
      priceTypes: ['net_list', 'EK_ohne_MWST', 'gros_list'],
    });
    expect(added.ok && [added.shop.defaultTax, added.shop.priceTypes]).toEqual([
      { value: 19, decimalDigits: 2 },
      ['net_list', 'EK_ohne_MWST', 'gros_list'],
    ]);
    if (!added.ok) return;
    const renamed = parseShopRecord('acme', { name: 'Acme 2' }, added.shop);
    expect(renamed.ok && [renamed.shop.defaultTax, renamed.shop.priceTypes]).toEqual([
      { value: 19, decimalDigits: 2 },
      ['net_list', 'EK_ohne_MWST', 'gros_list'],
    ]);
    const removed = parseShopRecord('acme', { defaultTax: null, priceTypes: null }, added.shop);
    expect(removed.ok && 'defaultTax' in removed.shop).toBe(false);
    expect(removed.ok && 'priceTypes' in removed.shop).toBe(false);
  });

  it('refuses a default tax outside 0 to 1 and price types that are empty, repeated or not names', () => {
    const bad = parseShopRecord('acme', {
      name: 'Acme',
      defaultTax: { value: 19, decimalDigits: 0 },
      priceTypes: ['net_list', 'net_list'],
    });
    expect(!bad.ok && bad.violations.map((v) => v.path)).toEqual(['/defaultTax', '/priceTypes']);
    for (const priceTypes of [[], ['net list'], [''], 'net_list'])
      expect(parseShopRecord('acme', { name: 'Acme', priceTypes }).ok).toBe(false);
  });
});
