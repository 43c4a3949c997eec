/**
 * The raw values typed into "Try it", read for the datapoint's `dataType` as a driver would hand
 * them to the value pipeline. The pipeline itself takes whatever a driver delivers: each driver
 * shapes its reading to the datapoint's dataType first (docs/devices.md, "Values"), and a reading
 * it cannot shape arrives as `null` with quality `bad`. So a sample no driver could deliver for
 * that dataType (10 for a BOOLEAN) is refused here, with a sentence, instead of being run as a
 * "good" value the device would never see.
 */

/** A sample read, or why it is refused. */
export type Sample = { readonly value: unknown } | { readonly problem: string };

/** The samples of the text: split at the commas outside quotes, brackets and braces. */
export function splitSamples(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i += 1;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '[' || c === '{') depth += 1;
    else if (c === ']' || c === '}') depth -= 1;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  BYTE: [-128, 255],
  INTEGER: [-2_147_483_648, 4_294_967_295],
  LONG: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function itemProblem(value: unknown, dataType: string): string | undefined {
  const range = INTEGER_RANGES[dataType];
  if (range) {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'is not a whole number';
    return value < range[0] || value > range[1] ? `is outside ${range[0]} to ${range[1]}` : undefined;
  }
  switch (dataType) {
    case 'FLOAT':
    case 'DOUBLE':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'is not a number';
    case 'BOOLEAN':
      return typeof value === 'boolean' ? undefined : 'is not true or false';
    case 'STRING':
      return typeof value === 'string' ? undefined : 'is not text';
    case 'DATE':
      return (typeof value === 'string' && !Number.isNaN(Date.parse(value))) ||
        (typeof value === 'number' && Number.isFinite(value))
        ? undefined
        : 'is not a date (ISO 8601 text such as 2026-12-02T10:00:00Z, or epoch milliseconds)';
    case 'OBJECT':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'is not a JSON object';
    default:
      return undefined;
  }
}

/**
 * One typed sample for `dataType`: JSON when it parses (`85`, `true`, `[1,2]`); for STRING also
 * bare text (`up`); `null` for any type (a reading without a value). Undefined dataType (a
 * datapoint the template gives none) takes anything.
 */
export function readSample(text: string, dataType: string | undefined): Sample {
  const value = parsed(text);
  if (value === null || dataType === undefined) return { value };
  if (dataType === 'STRING') return { value: typeof value === 'string' ? value : text };
  const array = /^(INTEGER|LONG|DOUBLE|FLOAT|STRING|BOOLEAN)_ARRAY$/.exec(dataType);
  if (dataType === 'ARRAY' || array) {
    if (!Array.isArray(value)) return { problem: `${text} is not a JSON array such as [1, 2]` };
    const itemType = array?.[1];
    const items: readonly unknown[] = value;
    const bad = itemType ? items.find((item) => itemProblem(item, itemType) !== undefined) : undefined;
    if (bad !== undefined) return { problem: `${JSON.stringify(bad)} in ${text} ${itemProblem(bad, itemType ?? '')}` };
    return { value };
  }
  const problem = itemProblem(value, dataType);
  return problem === undefined ? { value } : { problem: `${text} ${problem}` };
}

/** Example samples for a dataType, to start the field with something that runs. */
export function exampleSamples(dataType: string | undefined): string {
  switch (dataType) {
    case 'BOOLEAN':
      return 'true, false, true';
    case 'STRING':
      return 'up, down';
    case 'DATE':
      return '2026-12-02T10:00:00Z';
    case 'OBJECT':
      return '{"a": 1}';
    case 'ARRAY':
    case 'INTEGER_ARRAY':
    case 'LONG_ARRAY':
    case 'DOUBLE_ARRAY':
    case 'FLOAT_ARRAY':
      return '[1, 2], [3]';
    case 'STRING_ARRAY':
      return '["a", "b"]';
    case 'BOOLEAN_ARRAY':
      return '[true, false]';
    case undefined:
    default:
      return '10, 90, 20';
  }
}
