/** Formats an import reads: BMEcat 1.2 or 2005 XML, or JSON Lines of our article shape. */
export type CatalogFormat = 'bmecat' | 'jsonl';
