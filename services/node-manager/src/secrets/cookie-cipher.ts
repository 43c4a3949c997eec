import { randomBytes } from 'node:crypto';
import { SecretCipher, SECRET_KEY_BYTES, SecretSealError, type SecretPurpose } from '@triad/service-kit';

export { SECRET_KEY_BYTES };
/** A stored cookie that no known key opens, or that was tampered with. Never carries the value. */
export { SecretSealError as CookieSealError };

/** Node cookies are sealed for this use only. */
export const NODE_COOKIE: SecretPurpose = Object.freeze({ aad: 'triad-node-manager:node-cookie', what: 'node cookie' });

/**
 * Seals node cookies for storage (service-kit's `SecretCipher`, bound to the node-cookie use).
 * Cookies stored before encryption open as themselves.
 */
export class CookieCipher extends SecretCipher {
  constructor(keys: readonly Buffer[]) {
    super(keys, NODE_COOKIE);
  }

  /** A cipher over one fresh random key, held in memory only (tests and throwaway cores). */
  static ephemeral(): CookieCipher {
    return new CookieCipher([randomBytes(SECRET_KEY_BYTES)]);
  }
}
