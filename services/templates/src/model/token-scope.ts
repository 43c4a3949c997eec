/** What a token may do: `read` the registry, `write` templates and devices, `admin` (also tokens). */
export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
