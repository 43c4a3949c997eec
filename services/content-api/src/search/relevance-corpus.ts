/**
 * The relevance corpus of default matching (decision 0040): a small hardware and office catalog
 * written for it, and queries a buyer types with the article that must come first (`null`: no
 * article may match). `relevance-corpus.test.ts` runs it on every engine; a change that moves a
 * first result fails there. Add a line for every matching rule and every reported miss.
 */

/** One article of the fixture catalog: its number (id `<shop>:<number>`) and what search reads. */
export interface CorpusArticle {
  readonly number: string;
  readonly description: string;
  readonly manufacturerName?: string;
  readonly manufacturerArticleId?: string;
  readonly gtin?: string;
}

export const CORPUS_ARTICLES: readonly CorpusArticle[] = [
  {
    number: 'B-1001',
    description: 'Bohrer HSS 8 mm',
    manufacturerName: 'Brinkmann',
    manufacturerArticleId: 'HSS-8X117',
    gtin: '4006381333931',
  },
  { number: 'B-1002', description: 'Bohrmaschine 750 W mit Koffer', manufacturerName: 'Brinkmann' },
  { number: 'B-1003', description: 'Bohrhammer SDS-plus 800 W', manufacturerName: 'Brinkmann' },
  { number: 'B-1004', description: 'Akkubohrer 18 V mit zwei Akkus', manufacturerName: 'Voltwerk' },
  { number: 'B-1005', description: 'Steinbohrer 6 mm', manufacturerName: 'Brinkmann' },
  { number: 'K-2001', description: 'Kühlschrank 140 Liter weiß', manufacturerName: 'Frostal' },
  { number: 'K-2002', description: 'Kuehlbox 24 Liter', manufacturerName: 'Frostal' },
  { number: 'K-2003', description: 'Weißleim 500 g', manufacturerName: 'Leimer' },
  { number: 'K-2004', description: 'Straßenbesen 40 cm', manufacturerName: 'Kehrfix' },
  { number: 'K-2005', description: 'Mülltüten grün 60 l', manufacturerName: 'Kehrfix' },
  { number: 'K-2006', description: 'Öl für Kettensägen 1 l', manufacturerName: 'Forstmann' },
  { number: 'S-3001', description: 'Schraubendreher Schlitz 5,5 mm', manufacturerName: 'Dreko' },
  { number: 'S-3002', description: 'Schraubenschlüssel 13 mm', manufacturerName: 'Dreko' },
  { number: 'S-3003', description: 'Kugelschreiber blau', manufacturerName: 'Schreibwerk' },
  {
    number: 'S-3004',
    description: 'Kugellager 6204 2RS',
    manufacturerName: 'Lagerhaus',
    manufacturerArticleId: '6204-2RS',
  },
  {
    number: 'S-3005',
    description: 'Hammer 500 g Schlosserhammer DIN 1041 mit Stiel aus Esche',
    manufacturerName: 'Dreko',
  },
  { number: 'S-3006', description: 'Hammerstiel' },
  { number: 'S-3007', description: 'Zollstock 2 m Holz', manufacturerName: 'Messfix' },
  { number: 'S-3008', description: 'Wasserwaage 60 cm', manufacturerName: 'Messfix' },
  { number: 'O-4001', description: 'Druckerpapier A4 80 g 500 Blatt', manufacturerName: 'Papyra' },
  { number: 'O-4002', description: 'Ordner breit 80 mm', manufacturerName: 'Papyra' },
  { number: 'O-4003', description: 'Textmarker gelb', manufacturerName: 'Schreibwerk' },
  { number: 'O-4004', description: 'Leiter 3 Stufen Aluminium mit Ablage und Haken', manufacturerName: 'Steigmann' },
  { number: 'O-4005', description: 'Leiste Kiefer 2 m' },
  { number: 'O-4006', description: 'Schutzhandschuhe Größe 9', manufacturerName: 'Safeguard' },
  { number: 'O-4007', description: 'Taschenlampe LED', manufacturerName: 'Lumix' },
  { number: 'O-4008', description: 'Verlängerungskabel 5 m', manufacturerName: 'Voltwerk' },
  // The other parts of the compounds above, as words of their own (compounds are split by the
  // catalog's vocabulary), and a few Dutch articles.
  { number: 'B-1006', description: 'Akku 18 V 4,0 Ah', manufacturerName: 'Voltwerk' },
  { number: 'B-1007', description: 'Trennscheibe für Stein 125 mm', manufacturerName: 'Brinkmann' },
  { number: 'S-3009', description: 'Schraube M6 x 40 verzinkt', manufacturerName: 'Dreko' },
  { number: 'S-3010', description: 'Schreiber für Whiteboards, 4 Farben', manufacturerName: 'Schreibwerk' },
  { number: 'N-5001', description: 'Steenboor 8 mm', manufacturerName: 'Van Dijk' },
  { number: 'N-5002', description: 'Snijschijf voor steen 125 mm', manufacturerName: 'Van Dijk' },
  { number: 'N-5003', description: 'Gereedschapskist kunststof', manufacturerName: 'Van Dijk' },
  { number: 'N-5004', description: 'Olie voor gereedschap 100 ml' },
  { number: 'N-5005', description: 'Kist vuren 60 x 40 cm' },
];

/** A query and the article number that must come first (`null`: nothing matches), with the rule it checks. */
export interface CorpusQuery {
  readonly q: string;
  readonly first: string | null;
  /** The article that must come second, where the order between match classes is the point. */
  readonly second?: string;
  readonly rule: string;
}

export const CORPUS_QUERIES: readonly CorpusQuery[] = [
  { q: 'Bohrer', first: 'B-1001', rule: 'exact word' },
  { q: 'bohrrer', first: 'B-1001', rule: 'one typo (a letter added) from 5 letters' },
  { q: 'bhorer', first: 'B-1001', rule: 'one typo (two letters swapped)' },
  { q: 'bohrmaschiene', first: 'B-1002', rule: 'typo in a long word' },
  { q: 'bormashine', first: 'B-1002', rule: 'two typos from 9 letters' },
  { q: 'bohrm', first: 'B-1002', rule: 'last word as a prefix' },
  { q: 'bohrma 750', first: null, rule: 'a word that is not the last does not match as a prefix' },
  { q: '750 bohrma', first: 'B-1002', rule: 'the last word as a prefix after a number' },
  { q: 'kuehlschrank', first: 'K-2001', rule: 'ü spelled ue' },
  { q: 'Kühlschrank', first: 'K-2001', rule: 'umlaut as typed' },
  { q: 'kühlbox', first: 'K-2002', rule: 'umlaut in q, ue in the catalog' },
  { q: 'weissleim', first: 'K-2003', rule: 'ß spelled ss' },
  { q: 'strassenbesen', first: 'K-2004', rule: 'ß spelled ss in a long word' },
  { q: 'muelltueten', first: 'K-2005', rule: 'two umlauts spelled ue' },
  { q: 'oel', first: 'K-2006', rule: 'ö spelled oe in a word of 3 letters' },
  { q: 'schraubendreer', first: 'S-3001', rule: 'a letter missing' },
  { q: 'schraubens', first: 'S-3002', rule: 'prefix' },
  { q: 'kugels', first: 'S-3003', rule: 'prefix' },
  { q: 'hammer', first: 'S-3005', second: 'S-3006', rule: 'exact before prefix, though the prefix match is shorter' },
  { q: 'hamer', first: 'S-3005', rule: 'typo in a word of 5 letters' },
  { q: 'hammer 500', first: 'S-3005', rule: 'two words' },
  {
    q: 'leiter',
    first: 'O-4004',
    second: 'K-2002',
    rule: 'exact before typo (liter), though the typo match is shorter',
  },
  { q: 'leiste', first: 'O-4005', rule: 'exact' },
  { q: 'hammerstiel', first: 'S-3006', rule: 'exact' },
  { q: 'hammerstil', first: 'S-3006', rule: 'typo, last word' },
  { q: 'gelp', first: null, rule: 'no typo below 5 letters' },
  { q: 'textmarker gelp', first: null, rule: 'no typo below 5 letters, not the last word either' },
  { q: '6204', first: 'S-3004', rule: 'number, exact' },
  { q: '620', first: 'S-3004', rule: 'number as a prefix (last word)' },
  { q: '6205', first: null, rule: 'no typo in numbers' },
  { q: '4006381333931', first: 'B-1001', rule: 'GTIN' },
  { q: '4006381333932', first: null, rule: 'no typo in a GTIN' },
  { q: 'HSS-8X117', first: 'B-1001', rule: 'manufacturer part number' },
  { q: 'hss 8x118', first: null, rule: 'no typo in a part number' },
  { q: 'verlaengerungskabel', first: 'O-4008', rule: 'ä spelled ae' },
  { q: 'schutzhandschuhe groesse', first: 'O-4006', rule: 'ö spelled oe and ß spelled ss in one word' },
  { q: 'bohrer', first: 'B-1001', second: 'B-1005', rule: 'exact before compound (Stein + bohrer)' },
  { q: 'bohrer 6', first: 'B-1005', rule: 'compound (Stein + bohrer), not the last word' },
  { q: 'bohrer zwei', first: 'B-1004', rule: 'compound (Akku + bohrer)' },
  { q: 'kugel blau', first: 'S-3003', rule: 'compound (Kugel + schreiber), not the last word' },
  { q: 'schreiber', first: 'S-3010', rule: 'exact (Kugelschreiber is no compound of it: kugel is no word here)' },
  { q: 'schlüssel', first: 'S-3002', rule: 'compound with the linking n (Schraube-n-schlüssel)' },
  { q: 'schlussel', first: 'S-3002', rule: 'compound, ü typed u' },
  { q: 'schraube 13', first: null, rule: 'no compound when the rest (schlüssel) is no word of the catalog' },
  { q: 'dreher', first: 'S-3001', rule: 'compound with the linking n (Schraube-n-dreher)' },
  { q: 'leim 500', first: 'K-2003', rule: 'compound (Weiß + leim), ß in the catalog' },
  { q: 'kabel', first: null, rule: 'no compound when the rest (Verlängerung) is no word of the catalog' },
  { q: 'boor', first: 'N-5001', rule: 'Dutch compound (steen + boor)' },
  { q: 'kist', first: 'N-5005', second: 'N-5003', rule: 'exact before Dutch compound with a linking s' },
  { q: 'gereedschap kunststof', first: 'N-5003', rule: 'first part of a compound with the linking s' },
  { q: 'steen', first: 'N-5002', second: 'N-5001', rule: 'exact before prefix (steenboor)' },
  { q: 'stein 6', first: 'B-1005', rule: 'compound (Stein + bohrer), first part, not the last word' },
];
