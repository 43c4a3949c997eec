import { describe, expect, it } from 'vitest';
import { choosePriceOffer, type PriceOffer } from './choose-price-offer.js';
import type { ShopPriceTerms } from './shop-price-terms.js';

const terms: ShopPriceTerms = {
  shopId: 'acme',
  currency: 'EUR',
  priceTypes: ['net_customer', 'net_list', 'gros_list'],
  now: '2026-06-01T12:00:00.000Z',
};
const d = (value: number, decimalDigits = 2) => ({ value, decimalDigits });
const offer = (priceType: string, prices: PriceOffer['prices'], more: Partial<PriceOffer> = {}): PriceOffer => ({
  element: 'ARTICLE_PRICE',
  priceType,
  currency: 'EUR',
  territories: [],
  prices,
  ...more,
});

describe('choosePriceOffer', () => {
  it("takes the shop's most preferred type, whatever the file order", () => {
    const chosen = choosePriceOffer(
      [
        offer('net_list', [{ lowerBound: 1, amount: d(2000), tax: d(19) }]),
        offer('net_customer', [{ lowerBound: 1, amount: d(1500), tax: d(19) }]),
      ],
      terms,
    );
    expect(chosen).toMatchObject({ ok: true, blockPrices: [{ lowerBound: 1, amount: d(1500) }] });
    expect(chosen.ok && chosen.priceConditions?.priceType).toBe('net_customer');
  });

  it('makes gros_list net with its tax and keeps a first bound above 1', () => {
    const chosen = choosePriceOffer(
      [
        offer('gros_list', [
          { lowerBound: 100, amount: d(999), tax: d(19) },
          { lowerBound: 10, amount: d(11900), tax: d(19) },
        ]),
      ],
      terms,
    );
    expect(chosen.ok && chosen.blockPrices).toEqual([
      { lowerBound: 10, amount: d(10000) },
      { lowerBound: 100, amount: d(83950, 4) },
    ]);
  });

  it("uses the shop's default tax when no price has one, and says so", () => {
    const chosen = choosePriceOffer([offer('net_list', [{ lowerBound: 1, amount: d(500) }])], {
      ...terms,
      defaultTax: d(7),
    });
    expect(chosen).toMatchObject({ ok: true, tax: d(7), priceConditions: { taxFromShop: true } });
    const refused = choosePriceOffer([offer('net_list', [{ lowerBound: 1, amount: d(500) }])], terms);
    expect(!refused.ok && refused.violations[0]?.message).toBe(
      'ARTICLE_PRICE price_type="net_list" has no TAX (nor TAX_DETAILS/TAX) and shop acme has no default tax: ' +
        'give TAX, or set one with: triad shops update acme --default-tax 0.19',
    );
  });

  it('never takes an expired or future ladder, and falls back to the next type valid now', () => {
    const expired = offer('net_customer', [{ lowerBound: 1, amount: d(100), tax: d(19) }], {
      validUntil: '2001-12-31',
    });
    const future = offer('net_customer', [{ lowerBound: 1, amount: d(200), tax: d(19) }], {
      validFrom: '2030-01-01T00:00:00Z',
    });
    const list = offer('net_list', [{ lowerBound: 1, amount: d(300), tax: d(19) }], { validUntil: '2026-06-01' });
    const chosen = choosePriceOffer([expired, future, list], terms);
    expect(chosen.ok && chosen.blockPrices).toEqual([{ lowerBound: 1, amount: d(300) }]);
    const none = choosePriceOffer([expired, future], terms);
    expect(!none.ok && none.violations.map((v) => v.message)).toEqual([
      'every ARTICLE_PRICE price_type="net_customer" is out of its validity now: valid_end_date 2001-12-31; ' +
        'valid_start_date 2030-01-01T00:00:00Z',
    ]);
  });

  it('refuses other currencies, unknown types and missing amounts in BMEcat words', () => {
    const usd = choosePriceOffer(
      [offer('net_list', [{ lowerBound: 1, amount: d(1), tax: d(0) }], { currency: 'USD' })],
      terms,
    );
    expect(!usd.ok && usd.violations[0]?.message).toBe(
      'ARTICLE_PRICE price_type="net_list": PRICE_CURRENCY USD: shop acme accepts EUR ' +
        '(import the catalog into a shop in USD, or give prices in EUR)',
    );
    const own = choosePriceOffer([offer('udp_dealer', [{ lowerBound: 1, amount: d(1), tax: d(0) }])], terms);
    expect(!own.ok && own.violations[0]?.message).toBe(
      'ARTICLE_PRICE price_type "udp_dealer": shop acme takes net_customer, net_list, gros_list; allow one with: ' +
        'triad shops update acme --price-types net_customer,net_list,gros_list,udp_dealer',
    );
    expect(
      choosePriceOffer([offer('udp_dealer', [{ lowerBound: 1, amount: d(1), tax: d(0) }])], {
        ...terms,
        priceTypes: ['udp_dealer'],
      }).ok,
    ).toBe(true);
    const noAmount = choosePriceOffer([offer('net_list', [{ lowerBound: 1, tax: d(19) }])], terms);
    expect(!noAmount.ok && noAmount.violations[0]?.message).toBe(
      'ARTICLE_PRICE price_type="net_list" has no PRICE_AMOUNT',
    );
    const words = choosePriceOffer(
      [offer('net_list', [{ lowerBound: 1, amountText: 'auf Anfrage', tax: d(19) }])],
      terms,
    );
    expect(!words.ok && words.violations[0]?.message).toBe(
      'ARTICLE_PRICE price_type="net_list" has PRICE_AMOUNT "auf Anfrage", which is no decimal number (such as 12.50)',
    );
  });

  it('keeps an item whose ladders all ended, with no date it becomes searchable', () => {
    const ended = offer('net_list', [{ lowerBound: 1, amount: d(100), tax: d(19) }], { validUntil: '2001-12-31' });
    const kept = choosePriceOffer([ended], terms);
    expect(kept).toEqual({
      ok: false,
      violations: [
        {
          path: '',
          message: 'every ARTICLE_PRICE price_type="net_list" is out of its validity now: valid_end_date 2001-12-31',
        },
      ],
      waiting: { offers: [] },
    });
  });

  it('keeps an item whose ladder starts later, searchable from its start, with the ladders to come', () => {
    const ended = offer('net_list', [{ lowerBound: 1, amount: d(100), tax: d(19) }], { validUntil: '2001-12-31' });
    const later = offer('net_list', [{ lowerBound: 1, amount: d(300), tax: d(19) }], { validFrom: '2099-01-01' });
    const sooner = offer('net_customer', [{ lowerBound: 1, amount: d(200), tax: d(19) }], {
      validFrom: '2030-03-01T08:00:00+01:00',
    });
    const kept = choosePriceOffer([ended, later, sooner], terms);
    expect(kept.ok).toBe(false);
    expect(!kept.ok && kept.waiting).toEqual({ searchableFrom: '2030-03-01T07:00:00.000Z', offers: [later, sooner] });
  });

  it('dates a kept item by the first ladder to come that will be usable then', () => {
    const noAmount = offer('net_list', [{ lowerBound: 1, tax: d(19) }], { validFrom: '2030-01-01' });
    const usable = offer('net_list', [{ lowerBound: 1, amount: d(1), tax: d(19) }], { validFrom: '2031-01-01' });
    const kept = choosePriceOffer([noAmount, usable], terms);
    expect(!kept.ok && kept.waiting?.searchableFrom).toBe('2031-01-01T00:00:00.000Z');
  });

  it('keeps an item without PRICE_AMOUNT or without any tax, and one without any price', () => {
    const noAmount = choosePriceOffer(
      [offer('net_list', [{ lowerBound: 1, tax: d(19) }], { element: 'PRODUCT_PRICE' })],
      terms,
    );
    expect(!noAmount.ok && noAmount.waiting).toEqual({ offers: [expect.objectContaining({ priceType: 'net_list' })] });
    const noTax = choosePriceOffer([offer('net_list', [{ lowerBound: 1, amount: d(500) }])], terms);
    expect(!noTax.ok && noTax.waiting).toBeDefined();
    const none = choosePriceOffer([], terms);
    expect(!none.ok && none.waiting).toEqual({ offers: [] });
  });

  it('takes a less preferred ladder valid now when the preferred one has no amount', () => {
    const chosen = choosePriceOffer(
      [
        offer('net_customer', [{ lowerBound: 1, tax: d(19) }]),
        offer('net_list', [{ lowerBound: 1, amount: d(700), tax: d(19) }]),
      ],
      terms,
    );
    expect(chosen.ok && chosen.priceConditions?.priceType).toBe('net_list');
  });

  it('still refuses other currencies, types the shop does not take, and ladders wrong in themselves', () => {
    const usd = choosePriceOffer(
      [offer('net_list', [{ lowerBound: 1, amount: d(1), tax: d(0) }], { currency: 'USD' })],
      terms,
    );
    expect(!usd.ok && usd.waiting).toBeUndefined();
    const own = choosePriceOffer([offer('udp_dealer', [{ lowerBound: 1, amount: d(1), tax: d(0) }])], terms);
    expect(!own.ok && own.waiting).toBeUndefined();
    const twice = choosePriceOffer(
      [
        offer('net_list', [
          { lowerBound: 1, amount: d(1), tax: d(0) },
          { lowerBound: 1, amount: d(2), tax: d(0) },
        ]),
      ],
      terms,
    );
    expect(!twice.ok && twice.waiting).toBeUndefined();
    expect(!twice.ok && twice.violations[0]?.message).toBe(
      'two ARTICLE_PRICE price_type="net_list" have LOWER_BOUND 1',
    );
  });

  it('says when the choice may change: the ladder taken ends, or one as preferred starts, usable then', () => {
    const p = (amount?: number) => [
      { lowerBound: 1, ...(amount !== undefined ? { amount: d(amount) } : {}), tax: d(19) },
    ];
    const changesAt = (offers: readonly PriceOffer[]) => {
      const chosen = choosePriceOffer(offers, terms);
      return chosen.ok ? (chosen.changesAt ?? 'never') : 'refused';
    };
    expect(changesAt([offer('net_list', p(100))])).toBe('never');
    // A date ends at the end of its day (UTC); a date-time a millisecond after it.
    expect(changesAt([offer('net_list', p(100), { validUntil: '2026-06-30' })])).toBe('2026-07-01T00:00:00.000Z');
    expect(changesAt([offer('net_list', p(100), { validUntil: '2026-06-30T18:00:00Z' })])).toBe(
      '2026-06-30T18:00:00.001Z',
    );
    // A more preferred type starting later, before the taken one ends.
    expect(
      changesAt([
        offer('net_list', p(100), { validUntil: '2027-12-31' }),
        offer('net_customer', p(90), { validFrom: '2027-01-01' }),
      ]),
    ).toBe('2027-01-01T00:00:00.000Z');
    // A less preferred type starting later changes nothing; nor does a ladder to come without an amount.
    expect(
      changesAt([
        offer('net_list', p(100)),
        offer('gros_list', p(119), { validFrom: '2027-01-01' }),
        offer('net_customer', p(), { validFrom: '2027-02-01' }),
      ]),
    ).toBe('never');
  });
});
