import type { ComponentChildren } from 'preact';
import { DataTable } from '../../shell/data-table.js';
import { Link } from '../../shell/link.js';
import { usePageTitle } from '../../shell/page-title.js';
import { ArticleImage } from './article-image.js';
import type { CatalogClient } from './catalog-client.js';
import { articlePath, shopPath } from './catalog-route.js';
import type { ArticleDetail, BlockPrice, StringWithLanguage, TypedValue } from './catalog-wire.js';
import { formatDecimal, formatMoney, formatPercent } from './format-money.js';
import { formatQuantity, knowsUnit, unitName } from './units.js';
import { RemoteFailure } from './remote-failure.js';
import { useFocusWhenLost } from './use-focus-when-lost.js';
import { useRemote } from './use-remote.js';

export interface ArticlePageProps {
  readonly client: CatalogClient;
  readonly id: string;
  readonly shopNames: ReadonlyMap<string, string>;
  readonly onError: (error: Error) => void;
}

/** An article with every field `GET /api/articles/{id}` returns; its references link to their articles. */
export function ArticlePage({ client, id, shopNames, onError }: ArticlePageProps) {
  const article = useRemote(id, (signal) => client.article(id, signal), onError);
  usePageTitle(article.state === 'ready' ? article.value.description : 'Article');
  if (article.state === 'loading') return <p aria-live="polite">Loading the article…</p>;
  if (article.state === 'failed') {
    return (
      <>
        <h1>Article {id}</h1>
        <RemoteFailure remote={article} />
      </>
    );
  }
  return <ArticleView article={article.value} shopNames={shopNames} />;
}

function ArticleView({ article, shopNames }: { article: ArticleDetail; shopNames: ReadonlyMap<string, string> }) {
  const heading = useFocusWhenLost<HTMLHeadingElement>(article.id);
  const shopId = article.id.slice(0, article.id.indexOf(':'));
  const { details, orderDetails } = article;
  const images = article.mimeInfo.filter((m) => m.mimeType.startsWith('image/'));
  return (
    <article class="article">
      <p>
        <button type="button" onClick={() => history.back()}>
          Back
        </button>
      </p>
      <h1 tabIndex={-1} ref={heading}>
        {article.description}
      </h1>
      <div class="article-head">
        <ArticleImage image={images[0]} size={160} />
        <Fields>
          <Field name="Article id">{article.id}</Field>
          <Field name="Shop">
            <Link href={shopPath(shopId)}>{shopNames.get(shopId) ?? shopId}</Link>
          </Field>
          <Field name="Manufacturer">{article.manufacturerName}</Field>
          <Field name="Manufacturer article id">{article.manufacturerArticleId}</Field>
          <Field name="Supplier article id">{details.supplierArticleId}</Field>
          <Field name="Supplier alternative id">{details.supplierAlternativeArticleId}</Field>
          <Field name="International ids">{typed(details.internationalArticleId)}</Field>
          <Field name="Buyer article ids">{typed(details.buyerArticleId)}</Field>
        </Fields>
      </div>

      <h2>Prices by quantity</h2>
      <PriceTable
        caption={`Net prices per ${formatQuantity(orderDetails.priceQuantity, orderDetails.orderUnit)}`}
        prices={article.blockPricing}
      />
      {article.specialTaxes.length > 0 ? (
        <>
          <PriceTable caption="Net prices including special taxes" prices={article.blockPricingInclSpecialTax} />
          <Fields>
            {article.specialTaxes.map((tax) => (
              <Field key={tax.taxType} name={`Special tax ${tax.taxType}`}>
                {formatMoney({ amount: tax.amount, currency: tax.currency })} per order unit
              </Field>
            ))}
          </Fields>
        </>
      ) : null}

      <h2>Ordering</h2>
      <Fields>
        <Field name="Order unit">
          {unitWithCode(orderDetails.orderUnit)}
          {orderDetails.unitInfo.orderUnit.providerUnit !== orderDetails.unitInfo.orderUnit.unit
            ? ` (catalog: ${orderDetails.unitInfo.orderUnit.providerUnit})`
            : ''}
        </Field>
        <Field name="Content unit">
          {orderDetails.contentUnit === undefined ? undefined : unitWithCode(orderDetails.contentUnit)}
        </Field>
        <Field name="Content units per order unit">
          {orderDetails.numberOfContentUnitsPerOrderUnit === undefined
            ? undefined
            : formatDecimal(orderDetails.numberOfContentUnitsPerOrderUnit)}
        </Field>
        <Field name="Minimum order quantity">{orderDetails.minimumOrderQuantity}</Field>
        <Field name="Order in multiples of">{orderDetails.orderQuantityInterval}</Field>
        <Field name="Prices apply to">
          {orderDetails.priceQuantity} {orderDetails.priceQuantity === 1 ? 'order unit' : 'order units'}
        </Field>
        <Field name="Delivery time">
          {orderDetails.deliveryTime === undefined ? undefined : `${orderDetails.deliveryTime} days`}
        </Field>
      </Fields>

      <h2>Descriptions</h2>
      <Fields>
        {article.descriptions.map((d) => (
          <Field key={`s-${d.lang}`} name={`Short (${d.lang})`}>
            <span lang={d.lang}>{d.value}</span>
          </Field>
        ))}
        {details.descriptionsLong.map((d) => (
          <Field key={`l-${d.lang}`} name={`Long (${d.lang})`}>
            <span lang={d.lang}>{d.value}</span>
          </Field>
        ))}
      </Fields>

      <h2>Features</h2>
      {article.articleFeatures.length === 0 ? <p>None.</p> : null}
      {article.articleFeatures.map((group, index) => (
        <DataTable
          key={`${group.reference.systemName}-${index}`}
          caption={`${group.reference.systemName} group ${group.reference.groupId}`}
          rows={group.features}
          rowKey={(feature, i) => `${feature.name}-${i}`}
          rowLang={(feature) => feature.lang}
          columns={[
            { id: 'feature', header: 'Feature', rowHeader: true, cell: (feature) => feature.name },
            { id: 'value', header: 'Value', cell: (feature) => feature.values.join(', ') },
            { id: 'unit', header: 'Unit', cell: (feature) => feature.unit ?? '' },
          ]}
        />
      ))}

      <h2>Data sheets and media</h2>
      {article.mimeInfo.length === 0 ? <p>None.</p> : null}
      <ul>
        {article.mimeInfo.map((media, index) => (
          <li key={`${media.href}-${index}`}>
            <a href={media.href} rel="noopener noreferrer" target="_blank">
              {media.description ?? media.href}
            </a>{' '}
            ({purposeName(media.purpose)}, {media.mimeType})
          </li>
        ))}
      </ul>

      <h2>References</h2>
      {article.references.length === 0 ? <p>This article names no other article.</p> : null}
      <ul>
        {article.references.map((reference) => (
          <li key={`${reference.articleReferenceType}-${reference.refId}`}>
            {reference.articleReferenceType}: <Link href={articlePath(reference.refId)}>{reference.refId}</Link>
          </li>
        ))}
      </ul>

      {hasStatus(article) ? <h2>Status and remarks</h2> : null}
      <Fields>
        <Field name="Status">{typed(details.articleStatus)}</Field>
        <Field name="Special treatment">{typed(details.specialTreatmentClass)}</Field>
        <Field name="Customs tariff number">{details.customsTariffNumber}</Field>
        <Field name="Country of origin">{details.countryOfOrigin}</Field>
        <Field name="Remarks">{languages(details.remarks)}</Field>
      </Fields>
    </article>
  );
}

function hasStatus({ details }: ArticleDetail): boolean {
  return (
    [details.articleStatus, details.specialTreatmentClass, details.remarks].some((list) => list?.length) ||
    details.customsTariffNumber !== undefined ||
    details.countryOfOrigin !== undefined
  );
}

function PriceTable({ caption, prices }: { caption: string; prices: readonly BlockPrice[] }) {
  const conditions = prices.some((p) => p.validFrom ?? p.validUntil ?? p.territories?.length);
  return (
    <DataTable
      class="prices"
      caption={caption}
      rows={prices}
      rowKey={(price) => `${price.lowerBound}-${price.validFrom ?? ''}-${(price.territories ?? []).join()}`}
      columns={[
        { id: 'from', header: 'From quantity', rowHeader: true, cell: (price) => price.lowerBound },
        { id: 'net', header: 'Net price', cell: formatMoney },
        { id: 'vat', header: 'VAT', cell: (price) => formatPercent(price.tax) },
        ...(conditions ? [{ id: 'applies', header: 'Applies', cell: applies }] : []),
      ]}
    />
  );
}

function applies(price: BlockPrice): string {
  const parts = [
    price.validFrom === undefined ? '' : `from ${price.validFrom}`,
    price.validUntil === undefined ? '' : `until ${price.validUntil}`,
    price.territories?.length ? `in ${price.territories.join(', ')}` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? 'always' : parts.join(' ');
}

/** A description list that leaves out the fields without a value. */
function Fields({ children }: { children: ComponentChildren }) {
  return <dl class="fields">{children}</dl>;
}

function Field({ name, children }: { name: string; children: ComponentChildren }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  );
}

function typed(values: readonly TypedValue[] | undefined): string | undefined {
  return values?.length ? values.map((v) => `${v.value} (${v.type})`).join(', ') : undefined;
}

function languages(values: readonly StringWithLanguage[] | undefined): string | undefined {
  return values?.length ? values.map((v) => `${v.value} (${v.lang})`).join('; ') : undefined;
}

const PURPOSES: Readonly<Record<string, string>> = {
  normal: 'image',
  data_sheet: 'data sheet',
  safety_data_sheet: 'safety data sheet',
  thumbnail: 'thumbnail',
  detail: 'detail image',
  others: 'other',
};

function purposeName(purpose: string): string {
  return PURPOSES[purpose] ?? purpose.replaceAll('_', ' ');
}

/** A unit's name with its code (`piece (C62)`), or the code alone when Triad has no name for it. */
function unitWithCode(code: string): string {
  return knowsUnit(code) ? `${unitName(code)} (${code})` : code;
}
