/**
 * Unit codes of UN/ECE Recommendation 20 (and the older BMEcat codes still found in catalogs) as a
 * reader names them. Only common ones: an unknown code is shown as it is.
 */
const UNIT_NAMES: Readonly<Record<string, readonly [singular: string, plural: string]>> = {
  C62: ['piece', 'pieces'],
  H87: ['piece', 'pieces'],
  PCE: ['piece', 'pieces'],
  EA: ['each', 'each'],
  BX: ['box', 'boxes'],
  PK: ['pack', 'packs'],
  PA: ['packet', 'packets'],
  PR: ['pair', 'pairs'],
  SET: ['set', 'sets'],
  RO: ['roll', 'rolls'],
  CT: ['carton', 'cartons'],
  BG: ['bag', 'bags'],
  BO: ['bottle', 'bottles'],
  CA: ['can', 'cans'],
  DZN: ['dozen', 'dozens'],
  KGM: ['kilogram', 'kilograms'],
  GRM: ['gram', 'grams'],
  TNE: ['tonne', 'tonnes'],
  LTR: ['litre', 'litres'],
  MLT: ['millilitre', 'millilitres'],
  MTR: ['metre', 'metres'],
  CMT: ['centimetre', 'centimetres'],
  MMT: ['millimetre', 'millimetres'],
  KMT: ['kilometre', 'kilometres'],
  MTK: ['square metre', 'square metres'],
  MTQ: ['cubic metre', 'cubic metres'],
  HUR: ['hour', 'hours'],
  DAY: ['day', 'days'],
  MON: ['month', 'months'],
  KWH: ['kilowatt hour', 'kilowatt hours'],
};

/** The name of a unit code (`C62` -> `piece`), or the code when Triad does not know it. */
export function unitName(code: string, quantity = 1): string {
  const names = UNIT_NAMES[code.toUpperCase()];
  if (names === undefined) return code;
  return quantity === 1 ? names[0] : names[1];
}

/** Whether Triad has a name for the code. */
export function knowsUnit(code: string): boolean {
  return UNIT_NAMES[code.toUpperCase()] !== undefined;
}

/** A quantity with its unit, the number in the reader's locale: `1,000 pieces`, `2 XYZ`. */
export function formatQuantity(quantity: number, code: string, locale?: string): string {
  return `${formatCount(quantity, locale)} ${unitName(code, quantity)}`;
}

/** A count with the reader's digit grouping: `24,998` (en), `24.998` (de). */
export function formatCount(count: number, locale?: string): string {
  return new Intl.NumberFormat(locale).format(count);
}
