/**
 * Fills the template's `/{NAME}/` placeholders with a device's variables. The form is the one
 * NetinDS templates use: `/{ICMP_IPAddress}/` anywhere inside a string value.
 */
import { isObject } from '@triad/common';

const PLACEHOLDER = /\/\{([A-Za-z0-9_]+)\}\//g;

/** True when `text` still holds a `/{NAME}/` placeholder. */
export function hasPlaceholder(text: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(text);
}

/**
 * Returns a copy of `value` with every placeholder replaced by its variable. Placeholders without
 * a variable are left as they are and listed in `missing`.
 */
export function substituteVariables<T>(
  value: T,
  variables: Readonly<Record<string, string>>,
): { value: T; missing: string[] } {
  const missing = new Set<string>();
  const replaced = map(value, (text) =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const filled = Object.hasOwn(variables, name) ? variables[name] : undefined;
      if (filled === undefined) {
        missing.add(name);
        return whole;
      }
      return filled;
    }),
  );
  return { value: replaced as T, missing: [...missing] };
}

function map(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((item) => map(item, change));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item, change)]));
  return value;
}
