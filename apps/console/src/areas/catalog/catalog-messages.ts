/**
 * The content API's refusals of a search in people's words (decision 0036). The API answers a
 * bad query parameter with `Query parameter <name> is not valid: <JSON pointer> ...`; the page
 * says which choice to change instead.
 */
export function searchFailureMessage(status: number, apiMessage: string): string {
  if (status !== 400) return apiMessage;
  if (/currency/i.test(apiMessage))
    return 'Prices compare only within one currency: choose a currency under Currency to sort or filter by price.';
  const parameter = /Query parameter (\w+) is not valid/.exec(apiMessage)?.[1];
  if (parameter === 'fq')
    return 'One of the filters is no longer valid. Remove the filters (buttons above) and choose them again.';
  if (parameter === 'sort') return 'The catalog cannot sort this way. Choose another order under Sort by.';
  if (parameter !== undefined)
    return `The search's ${parameter} is not one the catalog takes. Start a new search from the Search page.`;
  return apiMessage;
}
