import { LANGUAGES, type LanguageCode } from '../model/article.js';

/**
 * ISO 639-2 codes (bibliographic and terminology forms) of the languages the API knows, and the
 * API's own ISO 639-1 codes, to the API's code. A code outside it is passed on as written, so
 * the record check refuses the text's article as being in an unknown language rather than
 * serving it under another language's code.
 */
export const LANGUAGE_CODES: Readonly<Record<string, LanguageCode>> = {
  ...Object.fromEntries(LANGUAGES.map((code) => [code, code])),
  deu: 'de',
  ger: 'de',
  eng: 'en',
  fra: 'fr',
  fre: 'fr',
  nld: 'nl',
  dut: 'nl',
  spa: 'es',
  ita: 'it',
  ces: 'cs',
  cze: 'cs',
  gle: 'ga',
  slk: 'sk',
  slo: 'sk',
  pol: 'pl',
  hun: 'hu',
  bul: 'bg',
  dan: 'da',
  ell: 'el',
  gre: 'el',
  est: 'et',
  fin: 'fi',
  hrv: 'hr',
  lit: 'lt',
  lav: 'lv',
  mlt: 'mt',
  por: 'pt',
  ron: 'ro',
  rum: 'ro',
  slv: 'sl',
  swe: 'sv',
  nor: 'no',
  nob: 'nb',
  nno: 'nn',
  isl: 'is',
  ice: 'is',
  tur: 'tr',
  rus: 'ru',
  ukr: 'uk',
  zho: 'zh',
  chi: 'zh',
  jpn: 'ja',
  kor: 'ko',
};

/** The API's code of a catalog language code; one it does not know as written (lower case). */
export function apiLanguage(code: string): LanguageCode {
  // Nearly every code is written as listed (`deu`): found without a trimmed, lower-cased copy.
  const listed = LISTED.get(code);
  if (listed !== undefined) return listed;
  const lower = code.trim().toLowerCase();
  return LANGUAGE_CODES[lower] ?? (lower as LanguageCode);
}

/** `LANGUAGE_CODES` as a map. */
const LISTED = new Map<string, LanguageCode>(Object.entries(LANGUAGE_CODES));
