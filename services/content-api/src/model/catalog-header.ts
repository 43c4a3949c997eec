/**
 * Which catalog a BMEcat file is and who sent it, as its `HEADER` says: kept on the import's
 * result and its recorded run, so a catalog manager can tell the files imported apart. Every
 * member is the element's text, trimmed; absent when the file does not give the element.
 */
export interface CatalogHeader {
  /** `CATALOG/CATALOG_ID`. */
  readonly catalogId?: string;
  /** `CATALOG/CATALOG_VERSION`. */
  readonly catalogVersion?: string;
  /** `CATALOG/CATALOG_NAME`, the first one (BMEcat 2005 may give one per language). */
  readonly catalogName?: string;
  /**
   * When the file was made: `CATALOG/GENERATION_DATE` (2005), or BMEcat 1.2's
   * `CATALOG/DATETIME` (`DATE`, then `T` and `TIME`, then `TIMEZONE`, as the file gives them).
   */
  readonly generationDate?: string;
  /** `SUPPLIER/SUPPLIER_ID`, the first one (a file may give one per type: `duns`, `iln` ...). */
  readonly supplierId?: string;
  /** `SUPPLIER/SUPPLIER_NAME`. */
  readonly supplierName?: string;
  /** `BUYER/BUYER_NAME`. */
  readonly buyerName?: string;
  /** `HEADER/GENERATOR_INFO`: the program that wrote the file. */
  readonly generatorInfo?: string;
}

/** `WB-2024 7.2 "Widgets" from ACME, 2024-05-01`: the header in one line, for summaries. */
export function describeCatalogHeader(header: CatalogHeader): string {
  const parts: string[] = [];
  const id = [header.catalogId, header.catalogVersion && `version ${header.catalogVersion}`].filter(Boolean);
  if (id.length > 0) parts.push(id.join(' '));
  if (header.catalogName) parts.push(`"${header.catalogName}"`);
  if (header.supplierName ?? header.supplierId) parts.push(`from ${header.supplierName ?? header.supplierId}`);
  if (header.generationDate) parts.push(`made ${header.generationDate}`);
  return parts.join(', ');
}
