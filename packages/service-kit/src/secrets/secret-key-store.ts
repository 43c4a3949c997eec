import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '@triad/common';
import { SecretCipher, SECRET_KEY_BYTES, type SecretPurpose } from './secret-cipher.js';

/** Where the secret key comes from: the setting, or a file in the data directory. */
export interface SecretKeySource {
  /** `TRIAD_SECRET_KEY`: 32 bytes as 64 hex characters or base64. */
  readonly secretKey?: string | undefined;
  readonly dataDir: string;
  /** The key file's name in `dataDir`, e.g. `node-manager.key`; a rotation writes `<keyFile>.new`. */
  readonly keyFile: string;
  readonly purpose: SecretPurpose;
}

/** The keys found, and how to finish a rotation once the secrets are resealed. */
export interface LoadedSecretKeys {
  /** Seals with the newest key; opens with every key found. */
  readonly cipher: SecretCipher;
  /** `setting`, or the key file's path. */
  readonly source: string;
  /** True when a `<keyFile>.new` of an unfinished rotation was found. */
  readonly pending: boolean;
  /** Makes the newest key the only one (renames a pending new key file over the old); idempotent. */
  finish(): Promise<void>;
}

/**
 * Decodes a key given as 64 hex characters or base64 of 32 bytes.
 * @throws Error naming the expected form (never the value).
 */
export function decodeSecretKey(text: string, what = 'TRIAD_SECRET_KEY'): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== SECRET_KEY_BYTES)
    throw new Error(`${what} must be ${SECRET_KEY_BYTES} bytes, as 64 hex characters or base64`);
  return key;
}

/**
 * The keys of one kind of secret: `secretKey` when set; otherwise `<dataDir>/<keyFile>`, created
 * (mode 0600, in a directory created 0700) with a random key on first use, and tightened to 0600
 * when found readable by others. A `<keyFile>.new` left by an interrupted rotation is the newest
 * key: the caller reseals the secrets, then calls `finish()`.
 */
export async function loadSecretKeys(source: SecretKeySource): Promise<LoadedSecretKeys> {
  if (source.secretKey !== undefined && source.secretKey !== '') {
    return {
      cipher: new SecretCipher([decodeSecretKey(source.secretKey)], source.purpose),
      source: 'setting',
      pending: false,
      finish: async () => {},
    };
  }
  await mkdir(source.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(source.dataDir, source.keyFile);
  const pending = path.join(source.dataDir, `${source.keyFile}.new`);
  const current = await readKeyFile(file);
  const fresh = await readKeyFile(pending);
  if (!current && !fresh) {
    await writeKeyFile(file, randomBytes(SECRET_KEY_BYTES));
    return loadSecretKeys(source);
  }
  const keys = [fresh, current].filter((key): key is Buffer => key !== undefined);
  return {
    cipher: new SecretCipher(keys, source.purpose),
    source: file,
    pending: fresh !== undefined,
    finish: async () => {
      if (fresh) await rename(pending, file);
    },
  };
}

/**
 * Writes `key` to `file` with mode 0600, failing when the file exists (no key is ever overwritten
 * in place: a lost key makes every stored secret unreadable).
 */
export async function writeKeyFile(file: string, key: Buffer): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(`${key.toString('hex')}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return decodeSecretKey(text, file);
}
