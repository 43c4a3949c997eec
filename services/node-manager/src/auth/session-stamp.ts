import { createHash } from 'node:crypto';
import type { UserRecord } from '../model/user-record.js';

/**
 * A digest of everything a session of `user` rests on: the stored password hash (a new password
 * gets a new salt, so setting the same password again changes it too), the role, the rights and
 * the tags. A WebSocket pass and an open live socket remember the stamp of the user they were
 * given to; when the stored user no longer has that stamp (password, role, rights or tags
 * changed) or no longer exists, the session has lost its reason and ends.
 */
export function sessionStamp(user: Pick<UserRecord, 'passwordHash' | 'role' | 'rights' | 'tags'>): string {
  const tags = user.tags === 'all' ? 'all' : [...user.tags].sort();
  return createHash('sha256')
    .update(JSON.stringify([user.passwordHash, user.role, [...user.rights].sort(), tags]))
    .digest('base64url');
}
