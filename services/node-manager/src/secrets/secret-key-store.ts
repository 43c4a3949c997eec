import {
  decodeSecretKey,
  loadSecretKeys as loadServiceSecretKeys,
  writeKeyFile,
  type LoadedSecretKeys,
} from '@triad/service-kit';
import { NODE_COOKIE } from './cookie-cipher.js';

export { decodeSecretKey, writeKeyFile, type LoadedSecretKeys };

/** The key file the service creates in its data directory when `TRIAD_SECRET_KEY` is not set. */
export const SECRET_KEY_FILE = 'node-manager.key';
/** A key being rotated in: written before the cookies are resealed, renamed over the key file after. */
export const NEW_SECRET_KEY_FILE = `${SECRET_KEY_FILE}.new`;

/** How a refused key is named in the start-up error (service-kit `verifySecretKey`). */
export const NODE_MANAGER_KEY_NAMES = Object.freeze({
  setting: 'TRIAD_SECRET_KEY (or node-manager.key in the data directory)',
  rotate: 'triad node-manager rotate-key',
});

/** Where the node-cookie key comes from: the setting, or a file in the data directory. */
export interface SecretKeySource {
  /** `TRIAD_SECRET_KEY`: 32 bytes as 64 hex characters or base64. */
  readonly secretKey?: string | undefined;
  readonly dataDir: string;
}

/** The node-cookie keys: `secretKey`, else `<dataDir>/node-manager.key` (see service-kit `loadSecretKeys`). */
export function loadSecretKeys(source: SecretKeySource): Promise<LoadedSecretKeys> {
  return loadServiceSecretKeys({ ...source, keyFile: SECRET_KEY_FILE, purpose: NODE_COOKIE });
}
