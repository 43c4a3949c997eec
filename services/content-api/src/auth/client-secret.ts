import { randomBytes, scrypt, timingSafeEqual, type BinaryLike } from 'node:crypto';

/** scrypt cost (2^14, r 8, p 1: about 16 MiB and tens of ms per check), salt and key sizes, bytes. */
const SCRYPT = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** scrypt on libuv's thread pool: a check never blocks the event loop (about 50-100 ms of CPU each). */
function hash(secret: BinaryLike, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_BYTES, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

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
  static async of(secret: string): Promise<ClientSecretHash> {
    const salt = randomBytes(SALT_BYTES);
    return new ClientSecretHash(salt, await hash(secret, salt));
  }

  /** True when `secret` is the hashed one; always costs one scrypt, whatever `secret` is. */
  async matches(secret: string): Promise<boolean> {
    return timingSafeEqual(await hash(secret, this.#salt), this.#key);
  }
}
