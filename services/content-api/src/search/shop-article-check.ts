/**
 * Refuses a shop id that is empty or holds `:`. Article ids are `<shopId>:<supplierArticleId>`,
 * so with a `:` in shop ids two shops could own the same id, and the ids of a shop would no
 * longer be one block in id order.
 *
 * @throws RangeError
 */
export function checkShopId(id: string): void {
  if (id === '' || id.includes(':')) throw new RangeError(`shop id "${id}" must be non-empty and without ":"`);
}

/**
 * Refuses an article that is not the shop's: another `shopId`, or an id not starting with `<shopId>:`.
 *
 * @throws RangeError
 */
export function checkShopArticle(article: { readonly id: string; readonly shopId: string }, shopId: string): void {
  if (article.shopId !== shopId)
    throw new RangeError(`article ${article.id} belongs to ${article.shopId}, not ${shopId}`);
  if (!article.id.startsWith(`${shopId}:`))
    throw new RangeError(`article id ${article.id} does not start with "${shopId}:"`);
}

/**
 * The entry of `byShop` an article of a whole catalog belongs to, after `checkShopArticle`.
 *
 * @throws RangeError for an article of a shop not in the catalog, or not its shop's.
 */
export function catalogShopOf<T>(
  article: { readonly id: string; readonly shopId: string },
  byShop: ReadonlyMap<string, T>,
): T {
  const entry = byShop.get(article.shopId);
  if (entry === undefined)
    throw new RangeError(`article ${article.id} belongs to ${article.shopId}, which is not among the catalog's shops`);
  checkShopArticle(article, article.shopId);
  return entry;
}
