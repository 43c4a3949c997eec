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
