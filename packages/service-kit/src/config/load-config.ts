import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ConfigError, type ConfigViolation } from './config-error.js';
import { deepFreeze, type DeepReadonly } from './deep-freeze.js';

/**
 * A JSON schema (draft-07 subset ajv accepts) for a config object. Properties may carry
 * `env: 'NAME'` to name the environment variable that feeds them (used in error messages) and
 * `default` values (units belong in `description`).
 */
export type ConfigSchema = Readonly<Record<string, unknown>>;

/** A layer of settings; `undefined` values are ignored so unset variables fall through to defaults. */
export type ConfigSource = Readonly<Record<string, unknown>> | undefined;

const ajv = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, removeAdditional: false, strict: true });
ajv.addKeyword({ keyword: 'env', schemaType: 'string' });
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Merges `sources` (later ones win; nested plain objects merge key by key), fills defaults,
 * coerces strings from the environment to the schema's types (`"8082"` -> 8082, `"false"` ->
 * false), validates, and returns a deep-frozen object.
 *
 * @throws ConfigError listing every violation at once.
 */
export function loadConfig<T>(schema: ConfigSchema, ...sources: ConfigSource[]): DeepReadonly<T> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const merged: Record<string, unknown> = {};
  for (const source of sources) if (source) mergeInto(merged, source);
  if (!validate(merged)) {
    throw new ConfigError((validate.errors ?? []).map((e) => toViolation(e, schema)));
  }
  return deepFreeze(merged as T);
}

function mergeInto(target: Record<string, unknown>, source: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined || key === '__proto__') continue;
    const current = target[key];
    if (isPlainObject(value) && isPlainObject(current)) mergeInto(current, value);
    else if (isPlainObject(value)) {
      const copy: Record<string, unknown> = {};
      mergeInto(copy, value);
      target[key] = copy;
    } else target[key] = value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

function toViolation(error: ErrorObject, schema: ConfigSchema): ConfigViolation {
  let path = error.instancePath;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    path += `/${String(error.params.missingProperty)}`;
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    path += `/${String(error.params.additionalProperty)}`;
    message = 'is not a known setting';
  } else if (error.keyword === 'enum') {
    message = `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  const env = envOf(schema, path);
  return env ? { path, env, message } : { path, message };
}

/** Follows `properties` along a pointer and returns the setting's `env` name, if declared. */
function envOf(schema: ConfigSchema, pointer: string): string | undefined {
  let node: unknown = schema;
  for (const segment of pointer.split('/').slice(1)) {
    const parent = node as { properties?: Record<string, unknown>; items?: unknown } | undefined;
    // An item of an array setting (`/databaseReadUrls/1`) is fed by the array's variable.
    if (/^\d+$/.test(segment) && parent?.items !== undefined) continue;
    node = parent?.properties?.[segment];
    if (node === undefined) return undefined;
  }
  const env = (node as { env?: unknown }).env;
  return typeof env === 'string' ? env : undefined;
}

/**
 * The settings a schema's `env` names find in `env`, keyed by property, trimmed; an empty or
 * blank variable counts as unset. A variable feeding an `array` setting is a comma-separated list
 * (each item trimmed, empty items dropped). A source for `loadConfig`.
 */
export function settingsFromEnv(
  schema: { readonly properties: Readonly<Record<string, { readonly env?: string; readonly type?: unknown }>> },
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | string[]> {
  const found: Record<string, string | string[]> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    const value = property.env === undefined ? undefined : env[property.env]?.trim();
    if (value === undefined || value === '') continue;
    found[key] =
      property.type === 'array'
        ? value
            .split(',')
            .map((item) => item.trim())
            .filter((item) => item !== '')
        : value;
  }
  return found;
}

/** Environment variables as a service reads them (`process.env` in its `config.ts`). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Reads a service's settings; see `serviceConfigLoader`. */
export type ServiceConfigLoader<T> = (
  env?: Environment,
  overrides?: Partial<T>,
  fallbacks?: Partial<T>,
) => DeepReadonly<T>;

/**
 * The settings loader of a service. Its layers, highest first: `overrides` (a host's explicit
 * choice, such as `--port`), the variables the schema's `env` names in `env` (default:
 * `defaultEnv()`, which the service's `config.ts`, its only reader of `process.env`, supplies),
 * `fallbacks` (a host's own defaults, such as `triad serve --port-base`), then the schema's
 * defaults. An empty or blank variable counts as unset. The loader throws `ConfigError` listing
 * every invalid setting.
 */
export function serviceConfigLoader<T>(
  schema: ConfigSchema & { readonly properties: Readonly<Record<string, { readonly env?: string }>> },
  defaultEnv: () => Environment,
): ServiceConfigLoader<T> {
  return (env = defaultEnv(), overrides = {}, fallbacks = {}) =>
    loadConfig<T>(schema, fallbacks, settingsFromEnv(schema, env), overrides);
}
