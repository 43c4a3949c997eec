import { Link } from '../../shell/link.js';
import { articlePath, shopPath } from './catalog-route.js';
import type { Hit } from './catalog-wire.js';
import { Marked, splitAtSpans, splitSnippet, type HighlightedHit } from './highlight-spans.js';
import { formatMoney } from './format-money.js';
import { ArticleImage } from './article-image.js';
import { formatQuantity } from './units.js';

export interface HitListProps {
  readonly hits: readonly Hit[];
  readonly shopNames: ReadonlyMap<string, string>;
}

/**
 * The hits of a search: image, description (the link to the article) with the words that matched
 * marked, a snippet of the long description when it matched, price per minimum quantity, unit and
 * shop. Marks come from the hit's `highlights` (`highlight=true`), as `<mark>` elements.
 */
export function HitList({ hits, shopNames }: HitListProps) {
  return (
    <ol class="hits">
      {hits.map((hit) => {
        const { article } = hit;
        const highlights = (hit as HighlightedHit).highlights;
        const snippet = highlights?.description?.snippet;
        const shopId = article.id.slice(0, article.id.indexOf(':'));
        const price = article.pricePerMinimumOrderQuantity;
        return (
          <li key={article.id} class="hit">
            <ArticleImage image={article.firstMimeImage} size={72} />
            <div class="hit-text">
              <h3>
                <Link href={articlePath(article.id)}>
                  <Marked parts={splitAtSpans(article.description, highlights?.title?.spans)} />
                </Link>
              </h3>
              {snippet ? (
                <p class="hit-snippet">
                  <Marked parts={splitSnippet(snippet)} />
                </p>
              ) : null}
              <p class="hit-meta">
                {article.manufacturerName ? <span>{article.manufacturerName} · </span> : null}
                <span>
                  Shop: <Link href={shopPath(shopId)}>{shopNames.get(shopId) ?? shopId}</Link>
                </span>
              </p>
            </div>
            <p class="hit-price">
              <strong>{formatMoney(price)}</strong>
              <span> for {formatQuantity(article.minimumOrderQuantity, article.orderUnit)}</span>
            </p>
          </li>
        );
      })}
    </ol>
  );
}
