import { isObject } from '@triad/common';
import type { DocumentPath } from '../problem.js';
import { holdsPrivateKey, isSecretSetting, urlPassword } from './secret-setting.js';
import type { SemanticCheck, SemanticReporter } from './semantic-reporter.js';

// What a device fills (the drivers' form), and brace forms that only look like variables
// (`${NAME}`, `{NAME}`, `/{NAME}`: DT_WARN_SEM_VARIABLE_MALFORMED speaks about those).
const PLACEHOLDER = /\/\{[A-Za-z0-9_]+\}\//g;
const BRACED = /\$?\/?\{\s*[A-Za-z_][\w.-]*\s*\}\/?/g;
const MAX_DEPTH = 32;

/** Where a secret sits: driver settings (filled per device) or a routing's serviceConfig (not). */
type Block = { readonly kind: 'driver'; readonly prefix: string } | { readonly kind: 'service' };

/**
 * Warns on a literal secret in a template (`DT_WARN_SEM_SECRET_LITERAL`): a community, password,
 * passphrase, key or token written as text or a number in an `originTypes` entry or a routing's
 * `serviceConfig`, at any depth, a PEM private key under any name, and a password inside a URL.
 * A template is read by everyone who may read templates and shared by all its devices, so a
 * secret belongs to each device. A value that is empty, or only `/{NAME}/` variables, is fine.
 * A well-known default (`public`) is still reported: it tells a reader what the devices accept.
 * The secret itself is never echoed (`found` stays unset).
 */
export const checkLiteralSecrets: SemanticCheck = (model, reporter) => {
  const originTypes = model.root['originTypes'];
  if (Array.isArray(originTypes)) {
    for (let i = 0; i < originTypes.length; i++) {
      const entry: unknown = originTypes[i];
      if (!isObject(entry)) continue;
      const block: Block = { kind: 'driver', prefix: driverPrefix(entry['originType']) };
      walk(entry, ['originTypes', i], [], block, reporter, MAX_DEPTH);
    }
  }
  for (const set of model.sets) serviceConfig(set.value['routing'], [...set.path, 'routing'], reporter);
  for (const datapoint of model.datapoints) {
    const alert = datapoint.value['alertConfig'];
    if (!isObject(alert) || !Array.isArray(alert['evaluations'])) continue;
    const evaluations: readonly unknown[] = alert['evaluations'];
    for (let i = 0; i < evaluations.length; i++) {
      const evaluation: unknown = evaluations[i];
      if (!isObject(evaluation)) continue;
      const path: DocumentPath = [...datapoint.path, 'alertConfig', 'evaluations', i, 'routing'];
      serviceConfig(evaluation['routing'], path, reporter);
    }
  }
};

function serviceConfig(routing: unknown, path: DocumentPath, reporter: SemanticReporter): void {
  if (!isObject(routing) || !isObject(routing['serviceConfig'])) return;
  const config = routing['serviceConfig'];
  walk(config, [...path, 'serviceConfig'], ['routing', 'serviceConfig'], { kind: 'service' }, reporter, MAX_DEPTH);
}

/**
 * Walks one block. `names` are the keys from the block's start (what the message calls the
 * setting; array items read `[i]`); `secret` says the value sits under a secret key (an array
 * of communities, say).
 */
function walk(
  value: unknown,
  path: DocumentPath,
  names: readonly string[],
  block: Block,
  reporter: SemanticReporter,
  depth: number,
  secret = false,
): void {
  if (depth <= 0) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      walk(value[i], [...path, i], [...names, `[${i}]`], block, reporter, depth - 1, secret);
    }
    return;
  }
  if (isObject(value)) {
    const owner = keysOf(names).at(-1);
    for (const key of Object.keys(value)) {
      walk(value[key], [...path, key], [...names, key], block, reporter, depth - 1, isSecretSetting(key, owner));
    }
    return;
  }
  const name = names.join('.').replace(/\.\[/g, '[');
  if (secret || (typeof value === 'string' && holdsPrivateKey(value))) {
    if (isLiteral(value)) reportSecret(path, name, variableName(block, keysOf(names)), block, reporter);
    return;
  }
  if (typeof value === 'string') {
    const password = urlPassword(value.replace(PLACEHOLDER, ''));
    if (password !== undefined && isLiteral(password)) reportUrl(path, name, block, reporter);
  }
}

/** The names that are keys, not array positions. */
function keysOf(names: readonly string[]): readonly string[] {
  return names.filter((name) => !name.startsWith('['));
}

/** True for a number, or a string with text outside its `/{NAME}/` variables. */
function isLiteral(value: unknown): boolean {
  if (typeof value === 'number') return true;
  if (typeof value !== 'string') return false;
  return value.replace(PLACEHOLDER, '').replace(BRACED, '').trim() !== '';
}

function reportSecret(
  path: DocumentPath,
  name: string,
  variable: string,
  block: Block,
  reporter: SemanticReporter,
): void {
  const seen = `\`${name}\` holds a literal secret that anyone who can read this template can see`;
  if (block.kind === 'service') {
    reporter.report('DT_WARN_SEM_SECRET_LITERAL', path, {
      message: `${seen}; keep it in the configuration of the service that consumes the data, not in the template.`,
    });
    return;
  }
  reporter.report('DT_WARN_SEM_SECRET_LITERAL', path, {
    message:
      `${seen}; use a variable such as /{${variable}}/ and set it per device ("variables"), or leave the ` +
      `setting out here and give it in each device's driver settings ("drivers"), which are stored encrypted.`,
    suggestion: `"/{${variable}}/"`,
  });
}

function reportUrl(path: DocumentPath, name: string, block: Block, reporter: SemanticReporter): void {
  const seen = `\`${name}\` holds a URL with a literal password that anyone who can read this template can see`;
  reporter.report('DT_WARN_SEM_SECRET_LITERAL', path, {
    message:
      block.kind === 'service'
        ? `${seen}; keep the password in the configuration of the service that consumes the data.`
        : `${seen}; take the password out of the URL and give it per device, in the password setting of ` +
          `each device's driver settings ("drivers"), which are stored encrypted.`,
  });
}

/** `SNMP` for `svc-ds-drv-snmp`, `MODBUS_TCP` for `svc-ds-drv-modbus-tcp`; empty when the type says no driver. */
function driverPrefix(originType: unknown): string {
  if (typeof originType !== 'string') return '';
  const driver = /drv-(.+)$/.exec(originType)?.[1];
  return driver === undefined ? '' : upperSnake(driver);
}

/** The variable a message proposes: `SNMP_READ_COMMUNITY`, `S7_PASSWORD`, `MQTT_TLS_KEY`. */
function variableName(block: Block, keys: readonly string[]): string {
  const [parent, key] = keys.length >= 2 ? keys.slice(-2) : [undefined, keys[0] ?? 'secret'];
  const own = upperSnake(key ?? 'secret');
  const name = own === 'KEY' && parent !== undefined ? `${upperSnake(parent)}_KEY` : own;
  const prefix = block.kind === 'driver' ? block.prefix : '';
  return ((prefix !== '' ? `${prefix}_` : '') + name).slice(0, 80);
}

function upperSnake(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}
