/**
 * Which settings of a template hold secrets. `@triad/device-drivers` lists each driver's secret
 * keys (`secretKeys`), but it depends on this package, not the other way round, so the names are
 * kept here: every key the drivers seal (SNMP communities and v3 passwords, the S7 and MQTT
 * passwords, the MQTT TLS key and its passphrase) and the usual names of credentials in settings
 * a driver may grow (tokens, API keys, secrets). Names compare without case, `_`, `-` or `.`.
 */

// A key whose whole (normalised) name is one of these holds a secret.
const SECRET_NAMES: ReadonlySet<string> = new Set([
  'community',
  'communities',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'authkey',
  'privkey',
  'privacykey',
  'privatekey',
  'token',
  'tokens',
  'apikey',
  'secret',
  'secrets',
]);

// A key whose (normalised) name ends with one of these holds a secret too: readCommunity,
// authPassword, privacyPassword, privPassword, clientSecret, accessToken, x-api-key...
const SECRET_ENDINGS: readonly string[] = [
  'community',
  'communities',
  'password',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'privatekey',
];

// Keys that are secrets only inside these parents (`tls.key` of MQTT: the client's private key).
const SECRET_IN_PARENT: ReadonlyMap<string, ReadonlySet<string>> = new Map([['key', new Set(['tls', 'ssl'])]]);

/** The name as compared: lower case, without `_`, `-`, `.` and spaces. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]/g, '');
}

/**
 * True when a setting named `key` (inside an object named `parent`, when there is one) holds a
 * secret: `readCommunity`, `authPassword`, `s7security.password`, `tls.key`, `apiKey`...
 */
export function isSecretSetting(key: string, parent?: string): boolean {
  const name = normalise(key);
  if (SECRET_NAMES.has(name)) return true;
  if (SECRET_ENDINGS.some((ending) => name.endsWith(ending))) return true;
  const parents = SECRET_IN_PARENT.get(name);
  return parents !== undefined && parent !== undefined && parents.has(normalise(parent));
}

/** True when the text holds a PEM private key (`-----BEGIN ... PRIVATE KEY-----`), whatever its key is named. */
export function holdsPrivateKey(text: string): boolean {
  return /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text);
}

/** The password of a URL's user information (`mqtt://user:password@host`), or undefined when it has none. */
export function urlPassword(text: string): string | undefined {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:]*:([^\s/?#@]+)@/.exec(text)?.[1];
}
