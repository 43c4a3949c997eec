import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBmecat } from './bmecat-reader.js';

const doc = (prices: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE>' +
  '<CURRENCY>CHF</CURRENCY></CATALOG></HEADER><T_NEW_CATALOG><PRODUCT><SUPPLIER_PID>P</SUPPLIER_PID>' +
  `${prices}</PRODUCT></T_NEW_CATALOG></BMECAT>`;

async function offers(prices: string): Promise<unknown> {
  for await (const item of readBmecat(Readable.from([doc(prices)])))
    if ('record' in item) return item.record.priceOffers;
  return undefined;
}

describe('BMEcat price offers', () => {
  it('reads every price type, per price details and currency, with factor, TAX_DETAILS and validity', async () => {
    expect(
      await offers(
        '<PRODUCT_PRICE_DETAILS><DATETIME type="valid_end_date"><DATE>2001-12-31</DATE></DATETIME>' +
          '<PRODUCT_PRICE price_type="nrp"><PRICE_AMOUNT>10.5</PRICE_AMOUNT><PRICE_FACTOR>0.9</PRICE_FACTOR>' +
          '<TAX_DETAILS><TAX_TYPE>vat</TAX_TYPE><TAX>0.081</TAX></TAX_DETAILS><LOWER_BOUND>5</LOWER_BOUND>' +
          '</PRODUCT_PRICE><PRODUCT_PRICE price_type="nrp"><PRICE_AMOUNT>auf Anfrage</PRICE_AMOUNT>' +
          '<PRICE_CURRENCY>EUR</PRICE_CURRENCY>' +
          '<TAX_DETAILS><TAX_TYPE>eco</TAX_TYPE><TAX>0.5</TAX></TAX_DETAILS><TERRITORY>DE</TERRITORY></PRODUCT_PRICE>' +
          '</PRODUCT_PRICE_DETAILS><PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="EK_ohne_MWST">' +
          '<TAX_DETAILS><TAX_CATEGORY>exemption</TAX_CATEGORY></TAX_DETAILS></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>',
      ),
    ).toEqual([
      {
        element: 'PRODUCT_PRICE',
        priceType: 'nrp',
        currency: 'CHF',
        validUntil: '2001-12-31',
        territories: [],
        prices: [
          {
            lowerBound: 5,
            amount: { value: 105, decimalDigits: 1 },
            factor: { value: 9, decimalDigits: 1 },
            tax: { value: 81, decimalDigits: 3 },
          },
        ],
      },
      {
        element: 'PRODUCT_PRICE',
        priceType: 'nrp',
        currency: 'EUR',
        validUntil: '2001-12-31',
        territories: ['DE'],
        prices: [{ lowerBound: 1, amountText: 'auf Anfrage' }],
      },
      {
        element: 'PRODUCT_PRICE',
        priceType: 'EK_ohne_MWST',
        currency: 'CHF',
        territories: [],
        prices: [{ lowerBound: 1, tax: { value: 0, decimalDigits: 0 } }],
      },
    ]);
  });
});
