import type { TokenScope } from './token-scope.js';

/** A stored API token, without its secret (only the secret's hash is stored). */
export interface ApiTokenRecord {
  readonly id: string;
  readonly name: string;
  readonly scope: TokenScope;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly revokedAt: number | null;
}
