import { formatDecimal } from './format-money.js';
import type { Decimal } from './catalog-wire.js';

/** One filter of a search's `fq`, as the page lists it with a button that removes it. */
export interface ActiveFilter {
  /** What the filter keeps, for people: `Manufacturer: Bosch`. */
  readonly label: string;
  /** The `fq` without this filter (`''` when it was the only one). */
  readonly without: string;
}

const NAMES: Readonly<Record<string, string>> = {
  businessShopId: 'Shop',
  manufacturerName: 'Manufacturer',
  'UNSPSC-7': 'UNSPSC 7',
  'UNSPSC-9': 'UNSPSC 9',
  pricePerMinimumOrderQuantity: 'Price',
  pricePerMinimumOrderQuantityInclSpecialTaxes: 'Price incl. special taxes',
};

/** The people's name of a facet or filter name (`manufacturerName` is `Manufacturer`). */
export function filterTitle(name: string): string {
  return NAMES[name] ?? name;
}

type Expression = Readonly<Record<string, unknown>>;

/**
 * The filters of `fq`: the operands of a top-level `And` (how facet links add filters), or the
 * whole expression, shops named by `shopNames` where known. Text that is not a filter query gives
 * one filter labelled with the raw text, so it can still be removed.
 */
export function activeFilters(fq: string, shopNames: ReadonlyMap<string, string> = new Map()): ActiveFilter[] {
  if (fq === '') return [];
  const root = parse(fq);
  if (root === undefined) return [{ label: fq, without: '' }];
  const operands = root.type === 'And' && Array.isArray(root.operands) ? (root.operands as unknown[]) : [root];
  return operands.map((operand, index) => {
    const rest = operands.filter((_, i) => i !== index);
    const only = rest.length === 1 ? rest[0] : { type: 'And', operands: rest };
    return {
      label: labelOf(operand, shopNames),
      without: rest.length === 0 ? '' : JSON.stringify({ expression: only }),
    };
  });
}

function parse(fq: string): Expression | undefined {
  try {
    const value: unknown = JSON.parse(fq);
    const expression = isObject(value) ? value.expression : undefined;
    return isObject(expression) ? expression : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Expression {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function labelOf(operand: unknown, shopNames: ReadonlyMap<string, string>): string {
  if (!isObject(operand)) return JSON.stringify(operand);
  const name = filterTitle(String(operand.filterName));
  switch (operand.type) {
    case 'ExactStringMatchFilter': {
      const shop = operand.filterName === 'businessShopId' ? shopNames.get(String(operand.value)) : undefined;
      return `${name}: ${shop ?? shown(operand.value)}`;
    }
    case 'ExactReferenceFeatureMatchFilter':
      return `${name}: ${shown(operand.group)}`;
    case 'DecimalRangeFilter': {
      const bound = (b: unknown) => (isDecimal(b) ? formatDecimal(b) : '…');
      return `${name}: ${bound(operand.lowerBound)} – ${bound(operand.upperBound)}`;
    }
    default:
      return JSON.stringify(operand);
  }
}

/** `""` selects the articles without a value: say so instead of showing nothing. */
function shown(value: unknown): string {
  return value === '' ? '(none)' : String(value);
}

function isDecimal(value: unknown): value is Decimal {
  return isObject(value) && typeof value.value === 'number';
}
