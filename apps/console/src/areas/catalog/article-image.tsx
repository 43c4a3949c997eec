import { useState } from 'preact/hooks';
import type { MimeInfo } from './catalog-wire.js';
import { isReservedHost } from './reserved-host.js';

/**
 * An article's image at `size` CSS pixels, lazily loaded; a grey box saying "No image" when the
 * article has none, its file cannot be loaded (the catalog's files live on the supplier's
 * servers) or it lives on a reserved example host (`isReservedHost`). Decorative beside the
 * description, so its alt text is empty unless the catalog gives one.
 */
export function ArticleImage({ image, size }: { readonly image: MimeInfo | undefined; readonly size: number }) {
  const [broken, setBroken] = useState(false);
  const shown = image !== undefined && image.mimeType.startsWith('image/') && !isReservedHost(image.href);
  if (!shown || broken) {
    return (
      <span class="article-image none" style={{ width: `${size}px`, height: `${size}px` }}>
        No image
      </span>
    );
  }
  return (
    <img
      class="article-image"
      src={image.href}
      alt={image.alt ?? ''}
      width={size}
      height={size}
      loading="lazy"
      onError={() => setBroken(true)}
    />
  );
}
