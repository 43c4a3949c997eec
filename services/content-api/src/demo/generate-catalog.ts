import { randomInt, randomItem, seededRandom } from '@triad/common';
import type { Article, BusinessShop, LanguageCode, StringWithLanguage } from '../model/article.js';
import { decimal } from '../model/decimal.js';

/** Options of `generateCatalog`. */
export interface GenerateCatalogOptions {
  /** Number of articles; they are spread round-robin over the shops. */
  readonly articles: number;
  /** Seed of the pseudo-random sequence; same seed and count give the same catalog. Default 1. */
  readonly seed?: number;
}

/** A generated catalog: shops plus an iterable of articles produced lazily (constant memory). */
export interface GeneratedCatalog {
  readonly shops: readonly BusinessShop[];
  articles(): Iterable<Article>;
}

const SHOPS: readonly [string, string, string][] = [
  ['office-direct', 'Office Direct GmbH', 'EUR'],
  ['labtools', 'LabTools Europe B.V.', 'EUR'],
  ['werkstatt-profi', 'Werkstatt Profi KG', 'EUR'],
  ['cz-technik', 'CZ Technik s.r.o.', 'CZK'],
];

const MANUFACTURERS = [
  '3M',
  'Bosch',
  'Leitz',
  'Makita',
  'Pelikan',
  'Stabilo',
  'Fellowes',
  'Kärcher',
  'Würth',
  'Brother',
  'Tesa',
  'Avery',
];

/**
 * Product kinds: words per language, UNSPSC-7 and UNSPSC-9 group, an ECLASS class with its name
 * (codes shaped like ECLASS classes, made up for the demo), usual order unit.
 */
const KINDS: readonly {
  words: Record<'de' | 'en' | 'fr', string>;
  unspsc7: string;
  unspsc9: string;
  eclass: readonly [id: string, name: string];
  unit: string;
}[] = [
  {
    words: { de: 'Kugelschreiber', en: 'ballpoint pen', fr: 'stylo à bille' },
    unspsc7: '44121704',
    unspsc9: '44121704',
    eclass: ['24250201', 'Ballpoint pen'],
    unit: 'C62',
  },
  {
    words: { de: 'Ordner', en: 'lever arch file', fr: 'classeur' },
    unspsc7: '44122011',
    unspsc9: '44122003',
    eclass: ['24330401', 'Lever arch file'],
    unit: 'C62',
  },
  {
    words: { de: 'Kopierpapier', en: 'copy paper', fr: 'papier copieur' },
    unspsc7: '14111507',
    unspsc9: '14111507',
    eclass: ['24320101', 'Copy paper'],
    unit: 'PK',
  },
  {
    words: { de: 'Akkuschrauber', en: 'cordless screwdriver', fr: 'visseuse sans fil' },
    unspsc7: '27112703',
    unspsc9: '27112703',
    eclass: ['21050101', 'Cordless screwdriver'],
    unit: 'C62',
  },
  {
    words: { de: 'Schutzhandschuhe', en: 'safety gloves', fr: 'gants de protection' },
    unspsc7: '46181504',
    unspsc9: '46181504',
    eclass: ['40070101', 'Protective glove'],
    unit: 'PR',
  },
  {
    words: { de: 'Klebeband', en: 'adhesive tape', fr: 'ruban adhésif' },
    unspsc7: '31201503',
    unspsc9: '31201503',
    eclass: ['24350701', 'Adhesive tape'],
    unit: 'RO',
  },
  {
    words: { de: 'Pipette', en: 'pipette', fr: 'pipette' },
    unspsc7: '41122101',
    unspsc9: '41121501',
    eclass: ['33040101', 'Pipette'],
    unit: 'C62',
  },
  {
    words: { de: 'Laborflasche', en: 'laboratory bottle', fr: 'flacon de laboratoire' },
    unspsc7: '41122602',
    unspsc9: '41121806',
    eclass: ['33020101', 'Laboratory bottle'],
    unit: 'BX',
  },
  {
    words: { de: 'Bohrer', en: 'drill bit', fr: 'foret' },
    unspsc7: '27112802',
    unspsc9: '27112802',
    eclass: ['21010101', 'Twist drill'],
    unit: 'SET',
  },
  {
    words: { de: 'Etiketten', en: 'labels', fr: 'étiquettes' },
    unspsc7: '55121606',
    unspsc9: '55121606',
    eclass: ['24330901', 'Label'],
    unit: 'PK',
  },
];

const COLOURS: readonly Record<'de' | 'en' | 'fr', string>[] = [
  { de: 'blau', en: 'blue', fr: 'bleu' },
  { de: 'rot', en: 'red', fr: 'rouge' },
  { de: 'schwarz', en: 'black', fr: 'noir' },
  { de: 'grün', en: 'green', fr: 'vert' },
  { de: 'weiß', en: 'white', fr: 'blanc' },
];

const SIZES = ['S', 'M', 'L', 'XL', '10 mm', '25 mm', '50 mm', 'A4', 'A5', '500 ml', '1 l'];

/**
 * A deterministic, realistic demo catalog: four shops (EUR and CZK), articles with German,
 * English and French descriptions, manufacturers, UNSPSC-7/UNSPSC-9 groups with features, an
 * ECLASS group with its name, block prices, special taxes on some, unit codes from the spec's
 * set, images and GTINs.
 */
export function generateCatalog(options: GenerateCatalogOptions): GeneratedCatalog {
  const seed = options.seed ?? 1;
  const shops = SHOPS.map(([id, name, currency], i) => generateShop(id, name, currency, i));
  return {
    shops,
    *articles() {
      for (let n = 0; n < options.articles; n += 1)
        yield generateArticle(n, seed, shops[n % shops.length] as BusinessShop);
    },
  };
}

function generateShop(id: string, name: string, currency: string, i: number): BusinessShop {
  const factor = currency === 'CZK' ? 25 : 1;
  return {
    id,
    name,
    currency,
    returnPolicy: {
      returnsAccepted: i !== 2,
      returnPeriodDays: i === 2 ? 0 : 14 + i * 7,
      restockingFee: decimal(i * 5, 2),
      conditions: [
        {
          lang: 'en',
          value: i === 2 ? 'Returns only for wrong or damaged goods.' : 'Unopened goods in original packaging.',
        },
        {
          lang: 'de',
          value:
            i === 2 ? 'Rücknahme nur bei Falsch- oder Schadenslieferung.' : 'Ungeöffnete Ware in Originalverpackung.',
        },
      ],
    },
    shippingCosts: {
      standard: { amount: decimal((495 + i * 100) * factor, 2), currency },
      ...(i === 3 ? {} : { freeShippingFrom: { amount: decimal((100 + i * 50) * factor, 0), currency } }),
      countries: i === 3 ? ['CZ', 'SK'] : ['DE', 'AT', 'NL', 'FR'],
    },
    minimumOrderValue: {
      amount: { amount: decimal((25 + i * 25) * factor, 0), currency },
      ...(i % 2 === 0 ? { surchargeBelow: { amount: decimal(500 * factor, 2), currency } } : {}),
    },
  };
}

/** The sentence that follows the short text in each long description. */
const QUALITY_LINE = {
  de: 'Hochwertige Qualität für Büro und Werkstatt.',
  en: 'High quality for office and workshop.',
  fr: 'Qualité supérieure pour bureau et atelier.',
} as const;

function generateArticle(n: number, seed: number, shop: BusinessShop): Article {
  const random = seededRandom(seed * 1_000_003 + n);
  const pick = <T>(items: readonly T[]): T => randomItem(random, items);
  const kind = pick(KINDS);
  const colour = pick(COLOURS);
  const size = pick(SIZES);
  const manufacturer = pick(MANUFACTURERS);
  const model = `${manufacturer.slice(0, 2).toUpperCase()}-${1000 + randomInt(random, 9000)}`;
  const text = (lang: 'de' | 'en' | 'fr') => `${manufacturer} ${kind.words[lang]} ${colour[lang]} ${size} ${model}`;
  const langs: ('de' | 'en' | 'fr')[] = random() < 0.3 ? ['de', 'en'] : ['de', 'en', 'fr'];
  const descriptions: StringWithLanguage[] = langs.map((lang) => ({ lang, value: text(lang) }));
  const factor = shop.currency === 'CZK' ? 25 : 1;
  const base = (50 + randomInt(random, 20_000)) * factor; // cents
  const moq = pick([1, 1, 1, 5, 10]);
  const interval = moq === 1 ? 1 : moq;
  const blockPrices = [
    { lowerBound: 1, amount: decimal(base, 2) },
    { lowerBound: 10, amount: decimal(Math.round(base * 0.95), 2) },
    { lowerBound: 100, amount: decimal(Math.round(base * 0.9), 2) },
  ];
  const supplierArticleId = `${shop.id.slice(0, 3).toUpperCase()}-${String(n).padStart(7, '0')}`;
  const keywords: { lang: LanguageCode; values: string[] }[] = langs.map((lang) => ({
    lang,
    values: [kind.words[lang], colour[lang]],
  }));
  return {
    id: `${shop.id}:${supplierArticleId}`,
    shopId: shop.id,
    supplierArticleId,
    description: text('de'),
    descriptions,
    descriptionsLong: langs.map((lang) => ({
      lang,
      value: `${text(lang)}. ${QUALITY_LINE[lang]}`,
    })),
    manufacturerName: manufacturer,
    manufacturerArticleId: model,
    internationalArticleIds: [{ type: 'gtin', value: gtin(n, seed) }],
    keywords,
    currency: shop.currency,
    tax: decimal(random() < 0.1 ? 7 : 19, 2),
    blockPrices,
    specialTaxes: random() < 0.1 ? [{ amount: decimal(25 * factor, 2), taxType: 'WEEE' }] : [],
    orderDetails: {
      orderUnit: kind.unit,
      ...(kind.unit === 'PK' || kind.unit === 'BX'
        ? { contentUnit: 'C62', numberOfContentUnitsPerOrderUnit: decimal(pick([10, 50, 100, 500]), 0) }
        : {}),
      minimumOrderQuantity: moq,
      orderQuantityInterval: interval,
      priceQuantity: 1,
      deliveryTime: 1 + randomInt(random, 10),
    },
    classifications: [
      {
        systemName: 'UNSPSC-7',
        groupId: kind.unspsc7,
        features: [{ name: 'Colour', values: [colour.en], lang: 'en', order: 1 }],
      },
      { systemName: 'UNSPSC-9', groupId: kind.unspsc9, features: [{ name: 'Size', values: [size], order: 2 }] },
      { systemName: 'ECLASS-11.1', groupId: kind.eclass[0], groupName: kind.eclass[1], features: [] },
    ],
    images: [
      {
        mimeType: 'image/jpeg',
        href: `https://images.example.com/${shop.id}/${supplierArticleId}.jpg`,
        purpose: 'normal',
        descriptions: langs.map((lang) => ({ lang, value: text(lang) })),
      },
    ],
    references:
      n % 7 === 0 && n > 0
        ? [
            {
              articleReferenceType: 'accessories',
              refId: `${shop.id}:${shop.id.slice(0, 3).toUpperCase()}-${String(n - 4).padStart(7, '0')}`,
            },
          ]
        : [],
  };
}

/** A valid GTIN-13 (check digit computed) derived from the article number. */
function gtin(n: number, seed: number): string {
  const body = `40${String((seed * 7919 + n) % 10_000_000_000).padStart(10, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return body + String((10 - (sum % 10)) % 10);
}
