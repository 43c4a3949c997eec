import { Link } from '../../shell/link.js';
import { articlePath, shopPath } from './catalog-route.js';
import type { Hit } from './catalog-wire.js';
import { formatMoney } from './format-money.js';
import { ArticleImage } from './article-image.js';
import { formatQuantity } from './units.js';

export interface HitListProps {
  readonly hits: readonly Hit[];
  readonly shopNames: ReadonlyMap<string, string>;
}

/** The hits of a search: image, description (the link to the article), price per minimum quantity, unit and shop. */
export function HitList({ hits, shopNames }: HitListProps) {
  return (
    <ol class="hits">
      {hits.map(({ article }) => {
        const shopId = article.id.slice(0, article.id.indexOf(':'));
        const price = article.pricePerMinimumOrderQuantity;
        return (
          <li key={article.id} class="hit">
            <ArticleImage image={article.firstMimeImage} size={72} />
            <div class="hit-text">
              <h3>
                <Link href={articlePath(article.id)}>{article.description}</Link>
              </h3>
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
