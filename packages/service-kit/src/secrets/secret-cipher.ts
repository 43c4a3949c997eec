import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/** Prefix of a sealed secret: `enc:v1:<key id>:<iv>:<ciphertext>:<tag>` (base64url parts). */
const PREFIX = 'enc:v1:';
/** AES-256 key length, bytes. */
export const SECRET_KEY_BYTES = 32;

/** What a cipher seals: `aad` binds a sealed value to its use, `what` names it in errors. */
export interface SecretPurpose {
  /**
   * Additional authenticated data, e.g. `triad-node-manager:node-cookie`: a value sealed for one use
   * never opens as another.
   */
  readonly aad: string;
  /** E.g. `node cookie`. */
  readonly what: string;
}

/** A stored secret that no known key opens, or that was tampered with. Never carries the value. */
export class SecretSealError extends Error {
  override readonly name = 'SecretSealError';
}

/**
 * Seals secrets (node cookies, device credentials) with AES-256-GCM for storage and opens them
 * again. `keys[0]` seals; every key opens what it sealed (the key id, 8 hex characters of the
 * key's SHA-256, says which), so a rotation can read the old form while writing the new. Values
 * without the `enc:v1:` prefix were stored before encryption (plain text) and open as themselves.
 */
export class SecretCipher {
  readonly #keys: ReadonlyMap<string, Buffer>;
  readonly #primaryId: string;
  readonly #primary: Buffer;
  readonly #aad: Buffer;
  readonly #what: string;

  /** @throws RangeError when no key is given or one is not 32 bytes. */
  constructor(keys: readonly Buffer[], purpose: SecretPurpose) {
    this.#aad = Buffer.from(purpose.aad);
    this.#what = purpose.what;
    const [primary] = keys;
    if (!primary) throw new RangeError(`a ${purpose.what} cipher needs at least one key`);
    for (const key of keys)
      if (key.length !== SECRET_KEY_BYTES) throw new RangeError(`secret keys are ${SECRET_KEY_BYTES} bytes`);
    this.#keys = new Map(keys.map((key) => [keyId(key), key]));
    this.#primary = primary;
    this.#primaryId = keyId(primary);
  }

  /** `secret` sealed with the first key. */
  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#primary, iv).setAAD(this.#aad);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [PREFIX + this.#primaryId, iv, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  /** The secret a stored value holds. @throws SecretSealError when no key opens it. */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [id, iv, sealed, tag] = stored.slice(PREFIX.length).split(':');
    const key = id === undefined ? undefined : this.#keys.get(id);
    if (!key || iv === undefined || sealed === undefined || tag === undefined)
      throw new SecretSealError(
        `a stored ${this.#what} was sealed with a key the service does not have (key id ${id ?? '?'}, ` +
          `this service has ${[...this.#keys.keys()].join(', ')}): every instance on one database needs the ` +
          'same TRIAD_SECRET_KEY (or a copy of the same key file)',
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(this.#aad);
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretSealError(`a stored ${this.#what} failed its integrity check`);
    }
  }

  /**
   * A cipher over the same keys for another kind of secret: a value sealed for one purpose never
   * opens as the other, and one key file serves both.
   */
  withPurpose(purpose: SecretPurpose): SecretCipher {
    return new SecretCipher(
      [this.#primary, ...[...this.#keys.values()].filter((key) => key !== this.#primary)],
      purpose,
    );
  }

  /** What this cipher seals (its purpose's `what`), for messages. */
  get what(): string {
    return this.#what;
  }

  /** The purpose's `aad`: names the kind of secret, e.g. in a key check's record. */
  get purpose(): string {
    return this.#aad.toString('utf8');
  }

  /**
   * One check value per key, the sealing key first: the HMAC-SHA256, keyed with the key, of a fixed
   * label and the purpose. It tells whether two instances hold the same key without revealing the
   * key (`verifySecretKey`).
   */
  checkValues(): readonly string[] {
    const keys = [this.#primary, ...[...this.#keys.values()].filter((key) => key !== this.#primary)];
    return keys.map((key) =>
      createHmac('sha256', key).update(`triad-secret-key-check:v1:`).update(this.#aad).digest('hex'),
    );
  }

  /** True when `stored` is a sealed value (of any key), false for plain text. */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** True when `stored` is sealed with the first key (nothing to redo). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${this.#primaryId}:`);
  }
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}
