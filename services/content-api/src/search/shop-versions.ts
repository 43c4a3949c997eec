import { createHash } from 'node:crypto';

/** `content_meta` key prefix of a shop's content version: `shop_hash:<shopId>`. */
export const SHOP_HASH_KEY = 'shop_hash:';
/** First key after every `SHOP_HASH_KEY` key (`;` follows `:`), for a range scan. */
export const SHOP_HASH_END = 'shop_hash;';

/**
 * The content version a request over `shopIds` sees (every shop of `versions` when empty): one
 * shop's own version, or for several a digest of their ids and versions, so it changes exactly
 * when one of them changes. Undefined when none of them has a version yet.
 */
export function versionOfShops(versions: ReadonlyMap<string, string>, shopIds: readonly string[]): string | undefined {
  const ids = shopIds.length === 0 ? [...versions.keys()] : [...new Set(shopIds)];
  const known = ids.filter((id) => versions.has(id)).sort();
  const [first] = known;
  if (first === undefined) return undefined;
  if (known.length === 1 && ids.length === 1) return versions.get(first);
  const digest = createHash('sha256');
  for (const id of known) digest.update(`${id}=${versions.get(id) ?? ''}\n`);
  return digest.digest('hex').slice(0, 16);
}
