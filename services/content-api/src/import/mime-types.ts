/** Media types of the file extensions catalogs name their media by (lower case, without the dot). */
export const MIME_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  htm: 'text/html',
  html: 'text/html',
  txt: 'text/plain',
  mp4: 'video/mp4',
};

/** The media type a source's extension suggests (`application/octet-stream` when none does). */
export function mimeTypeOf(href: string): string {
  const extension = /\.([a-zA-Z0-9]+)(?:[?#].*)?$/.exec(href)?.[1]?.toLowerCase() ?? '';
  return MIME_TYPES[extension] ?? 'application/octet-stream';
}
