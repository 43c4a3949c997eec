import { isObject } from '@triad/common';
import type { Decimal } from '../model/decimal.js';
import { invalidQueryParam, type QueryParamViolation } from '../errors.js';
import { CLASSIFICATION_FACETS, type FilterExpression } from './search-query.js';

/** Deepest nesting of `And`/`Or` an `fq` may have (the root expression is depth 1). */
export const MAX_FILTER_DEPTH = 8;
/** Most operands of one `And`/`Or`. */
export const MAX_FILTER_OPERANDS = 100;
/** Most characters of the `fq` parameter. */
export const MAX_FILTER_LENGTH = 8192;

const STRING_FILTERS = ['businessShopId', 'manufacturerName'] as const;
const RANGE_FILTERS = ['pricePerMinimumOrderQuantity', 'pricePerMinimumOrderQuantityInclSpecialTaxes'] as const;
const REFERENCE_FILTERS = CLASSIFICATION_FACETS;

/**
 * Parses the `fq` parameter (`{"expression": {...}}`, JSON) into a filter tree. Collects every
 * violation with its JSON pointer within the query (`#/fq/expression/operands/0/value`).
 *
 * @throws ProblemError 400 invalid-query-param (`queryParam: 'fq'`) listing every violation.
 */
export function parseFilter(text: string): FilterExpression {
  const errors: QueryParamViolation[] = [];
  if (text.length > MAX_FILTER_LENGTH) {
    throw invalidQueryParam('fq', [
      {
        path: '#/fq',
        code: 'MAXIMUM',
        limit: MAX_FILTER_LENGTH,
        description: `longer than ${MAX_FILTER_LENGTH} characters`,
      },
    ]);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw invalidQueryParam('fq', [{ path: '#/fq', code: 'TYPE', description: 'is not a JSON object' }]);
  }
  if (!isObject(document))
    throw invalidQueryParam('fq', [{ path: '#/fq', code: 'TYPE', description: 'is not a JSON object' }]);
  unknownMembers(document, ['expression'], '#/fq', errors);
  const expression = parseExpression(document.expression, '#/fq/expression', 1, errors);
  if (errors.length > 0 || !expression) throw invalidQueryParam('fq', errors);
  return expression;
}

function parseExpression(
  node: unknown,
  path: string,
  depth: number,
  errors: QueryParamViolation[],
): FilterExpression | undefined {
  if (!isObject(node)) {
    errors.push({ path, code: 'TYPE', description: node === undefined ? 'is required' : 'must be an object' });
    return undefined;
  }
  const type = node.type;
  switch (type) {
    case 'And':
    case 'Or': {
      unknownMembers(node, ['type', 'operands'], path, errors);
      if (depth > MAX_FILTER_DEPTH) {
        errors.push({
          path,
          code: 'MAXIMUM',
          limit: MAX_FILTER_DEPTH,
          description: `nests deeper than ${MAX_FILTER_DEPTH} levels`,
        });
        return undefined;
      }
      if (!Array.isArray(node.operands)) {
        errors.push({ path: `${path}/operands`, code: 'TYPE', description: 'must be an array' });
        return undefined;
      }
      if (node.operands.length > MAX_FILTER_OPERANDS) {
        errors.push({
          path: `${path}/operands`,
          code: 'MAXIMUM',
          limit: MAX_FILTER_OPERANDS,
          description: `has more than ${MAX_FILTER_OPERANDS} operands`,
        });
        return undefined;
      }
      const operands = node.operands.map((o: unknown, i: number) =>
        parseExpression(o, `${path}/operands/${i}`, depth + 1, errors),
      );
      return operands.every((o): o is FilterExpression => o !== undefined) ? { type, operands } : undefined;
    }
    case 'ExactStringMatchFilter': {
      unknownMembers(node, ['type', 'filterName', 'value'], path, errors);
      const filterName = oneOf(node.filterName, STRING_FILTERS, `${path}/filterName`, errors);
      const value = text(node.value, `${path}/value`, errors);
      return filterName && value !== undefined ? { type, filterName, value } : undefined;
    }
    case 'ExactReferenceFeatureMatchFilter': {
      unknownMembers(node, ['type', 'filterName', 'group'], path, errors);
      const filterName = oneOf(node.filterName, REFERENCE_FILTERS, `${path}/filterName`, errors);
      const group = text(node.group, `${path}/group`, errors);
      return filterName && group !== undefined ? { type, filterName, group } : undefined;
    }
    case 'DecimalRangeFilter': {
      unknownMembers(node, ['type', 'filterName', 'lowerBound', 'upperBound'], path, errors);
      const filterName = oneOf(node.filterName, RANGE_FILTERS, `${path}/filterName`, errors);
      const lowerBound =
        node.lowerBound === undefined ? undefined : decimalLike(node.lowerBound, `${path}/lowerBound`, errors);
      const upperBound =
        node.upperBound === undefined ? undefined : decimalLike(node.upperBound, `${path}/upperBound`, errors);
      if (!filterName) return undefined;
      return { type, filterName, ...(lowerBound ? { lowerBound } : {}), ...(upperBound ? { upperBound } : {}) };
    }
    default:
      errors.push({
        path: `${path}/type`,
        code: typeof type === 'string' ? 'UNKNOWN' : 'TYPE',
        description: typeof type === 'string' ? `unknown expression type ${type}` : 'must be a string',
      });
      return undefined;
  }
}

function decimalLike(node: unknown, path: string, errors: QueryParamViolation[]): Decimal | undefined {
  if (!isObject(node)) {
    errors.push({ path, code: 'TYPE', description: 'must be an object {value, decimalDigits}' });
    return undefined;
  }
  unknownMembers(node, ['value', 'decimalDigits'], path, errors);
  const value = integer(node.value, `${path}/value`, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, errors);
  const digits =
    node.decimalDigits === undefined ? 0 : integer(node.decimalDigits, `${path}/decimalDigits`, -18, 18, errors);
  return value !== undefined && digits !== undefined ? { value, decimalDigits: digits } : undefined;
}

function integer(
  node: unknown,
  path: string,
  min: number,
  max: number,
  errors: QueryParamViolation[],
): number | undefined {
  if (typeof node !== 'number' || !Number.isInteger(node)) {
    errors.push({ path, code: 'TYPE', description: 'must be an integer' });
    return undefined;
  }
  if (node < min) errors.push({ path, code: 'MINIMUM', limit: min, description: `must be at least ${min}` });
  else if (node > max) errors.push({ path, code: 'MAXIMUM', limit: max, description: `must be at most ${max}` });
  else return node;
  return undefined;
}

function text(node: unknown, path: string, errors: QueryParamViolation[]): string | undefined {
  if (typeof node === 'string') return node;
  errors.push({ path, code: 'TYPE', description: node === undefined ? 'is required' : 'must be a string' });
  return undefined;
}

function oneOf<T extends string>(
  node: unknown,
  allowed: readonly T[],
  path: string,
  errors: QueryParamViolation[],
): T | undefined {
  if (typeof node !== 'string') {
    errors.push({ path, code: 'TYPE', description: node === undefined ? 'is required' : 'must be a string' });
    return undefined;
  }
  if ((allowed as readonly string[]).includes(node)) return node as T;
  errors.push({
    path,
    code: 'UNKNOWN',
    description: `unknown filterName ${node}; expected one of ${allowed.join(', ')}`,
  });
  return undefined;
}

function unknownMembers(
  node: Record<string, unknown>,
  known: readonly string[],
  path: string,
  errors: QueryParamViolation[],
): void {
  for (const key of Object.keys(node)) {
    if (!known.includes(key))
      errors.push({
        path: `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        code: 'UNKNOWN',
        description: `unknown member ${key}`,
      });
  }
}
