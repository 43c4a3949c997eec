import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** scrypt cost (2^14, r 8, p 1: about 16 MiB and tens of ms per check), salt and key sizes, bytes. */
const SCRYPT = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/**
 * A client secret kept only as its scrypt hash (a random salt per secret), checked in constant
 * time. The secret itself is not kept, so neither a heap dump nor a log can reveal it.
 */
export class ClientSecretHash {
  readonly #salt: Buffer;
  readonly #key: Buffer;

  private constructor(salt: Buffer, key: Buffer) {
    this.#salt = salt;
    this.#key = key;
  }

  /** Hashes `secret` with a fresh salt. */
  static of(secret: string): ClientSecretHash {
    const salt = randomBytes(SALT_BYTES);
    return new ClientSecretHash(salt, scryptSync(secret, salt, KEY_BYTES, SCRYPT));
  }

  /** True when `secret` is the hashed one; always costs one scrypt, whatever `secret` is. */
  matches(secret: string): boolean {
    return timingSafeEqual(scryptSync(secret, this.#salt, KEY_BYTES, SCRYPT), this.#key);
  }
}
