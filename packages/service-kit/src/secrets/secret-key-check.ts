import type { SecretCipher } from './secret-cipher.js';

/**
 * Where a service records the check value of the key its secrets are sealed with, one per kind
 * of secret (`purpose`), in the database that holds those secrets.
 */
export interface KeyCheckStore {
  /** The value recorded for `purpose`, if any. */
  read(purpose: string): Promise<string | undefined>;
  /**
   * Records `value` for `purpose` unless a value is recorded already (another instance may record
   * at the same moment); resolves to the value recorded afterwards, ours or the earlier one.
   */
  recordIfAbsent(purpose: string, value: string): Promise<string>;
  /** Replaces the value recorded for `purpose` (once every secret is sealed with the new key). */
  replace(purpose: string, value: string): Promise<void>;
}

/** How `verifySecretKey` names the key and the way to change it in its message. */
export interface KeyCheckNames {
  /** Where the key comes from, e.g. `TRIAD_SECRET_KEY (or node-manager.key in the data directory)`. */
  readonly setting: string;
  /** How to move the stored secrets to another key, e.g. `triad node-manager rotate-key`; absent: no way yet. */
  readonly rotate?: string;
}

/** The key of this instance is not the one the stored secrets were sealed with. Never carries a key. */
export class SecretKeyMismatchError extends Error {
  override readonly name = 'SecretKeyMismatchError';
  /** Fingerprint of the key the database expects. */
  readonly expected: string;
  /** Fingerprint of this instance's key. */
  readonly actual: string;
  constructor(message: string, expected: string, actual: string) {
    super(message);
    this.expected = expected;
    this.actual = actual;
  }
}

/** The part of a check value shown to people: 16 hex characters. */
export function keyFingerprint(checkValue: string): string {
  return checkValue.slice(0, 16);
}

/** What `verifySecretKey` found. */
export interface KeyCheck {
  /** `recorded`: this start recorded the key (first start); `current` or `previous`: which key matched. */
  readonly matched: 'recorded' | 'current' | 'previous';
  /** Fingerprint of the sealing key. */
  readonly fingerprint: string;
  /**
   * Records the sealing key as the expected one; call it once every stored secret is sealed with
   * it (after a rotation's reseal). Nothing to do when it matched `current`.
   */
  commit(): Promise<void>;
}

/**
 * Checks, before a service opens or seals any stored secret, that its key is the one the secrets
 * in its database were sealed with: the database keeps the check value of that key
 * (`SecretCipher.checkValues`, a keyed hash of a fixed label, never the key), recorded at the first
 * start. A key the record does not match refuses the start with a message naming both
 * fingerprints and how to fix it; a rotation's previous key (an unfinished `<keyFile>.new`, or a
 * cipher given both keys) matches too, and `commit` then records the new key.
 *
 * @throws SecretKeyMismatchError when neither key of `cipher` is the recorded one.
 */
export async function verifySecretKey(
  cipher: SecretCipher,
  store: KeyCheckStore,
  names: KeyCheckNames,
): Promise<KeyCheck> {
  const ours = cipher.checkValues();
  const [current] = ours;
  if (current === undefined) throw new RangeError('a cipher has at least one key');
  const purpose = cipher.purpose;
  const fingerprint = keyFingerprint(current);
  const commit = () => store.replace(purpose, current);
  let recorded = await store.read(purpose);
  let matched: KeyCheck['matched'] | undefined;
  if (recorded === undefined) {
    recorded = await store.recordIfAbsent(purpose, current);
    if (recorded === current) matched = 'recorded';
  }
  if (recorded === current) matched ??= 'current';
  else if (ours.includes(recorded)) matched = 'previous';
  if (matched === undefined) {
    const expected = keyFingerprint(recorded);
    throw new SecretKeyMismatchError(
      `the stored ${cipher.what}s of this database were sealed with another key (fingerprint ${expected}) ` +
        `than this instance's ${names.setting} (fingerprint ${fingerprint}). Start it with the key of ` +
        `fingerprint ${expected}: every instance on one database needs the same key. ` +
        (names.rotate === undefined
          ? 'This service cannot move its secrets to another key yet: keep the key with the backups of the database'
          : `To change the key, stop every instance and run \`${names.rotate}\``),
      expected,
      fingerprint,
    );
  }
  return { matched, fingerprint, commit: matched === 'current' || matched === 'recorded' ? async () => {} : commit };
}
