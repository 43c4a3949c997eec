import { Fragment } from 'preact';
import { DataTable } from '../../shell/data-table.js';
import type { ImportRun } from './catalog-wire.js';

type ImportWarning = ImportRun['warnings'][number];

/** The warning kind of an element of the file that Triad does not keep. */
const UNKEPT_ELEMENT = 'unkept-element';

/** BMEcat's container of user-defined extensions (UDX), whose elements Triad never reads. */
const EXTENSIONS = 'USER_DEFINED_EXTENSIONS/';

/** The run's warnings: elements of the file Triad did not keep, and everything else it noted. */
function splitWarnings(warnings: readonly ImportWarning[]) {
  return {
    unkept: warnings.filter((w) => w.kind === UNKEPT_ELEMENT),
    notes: warnings.filter((w) => w.kind !== UNKEPT_ELEMENT),
  };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the folded report holds, said in its summary: `1 refused record, 2 elements not kept`. */
export function reportSummaryText(run: ImportRun): string {
  const { unkept, notes } = splitWarnings(run.warnings);
  const parts: string[] = [];
  if (run.counts.refused > 0) parts.push(plural(run.counts.refused, 'refused record', 'refused records'));
  if (unkept.length > 0) parts.push(plural(unkept.length, 'element not kept', 'elements not kept'));
  if (notes.length > 0) parts.push(plural(notes.length, 'note', 'notes'));
  return parts.length > 0 ? parts.join(', ') : 'nothing refused, no warnings';
}

/**
 * A BMEcat element path (`ARTICLE/ARTICLE_DETAILS/SEGMENT`) that may break after each `/` on a
 * narrow screen; the text stays whole for copying and for screen readers.
 */
function ElementPath({ path }: { readonly path: string }) {
  if (path === '') return <span class="hint">the whole file</span>;
  const steps = path.split('/');
  return (
    <code class="element-path">
      {steps.map((step, i) => (
        <Fragment key={i}>
          {step}
          {i < steps.length - 1 ? (
            <>
              /<wbr />
            </>
          ) : null}
        </Fragment>
      ))}
    </code>
  );
}

/** How the import took the prices, one `<dt>`/`<dd>` pair each; nothing for older runs and files without. */
function PriceDecisions({ decisions }: { readonly decisions: ImportRun['decisions'] }) {
  if (decisions === null) return null;
  const types = Object.entries(decisions.priceTypesUsed);
  return (
    <>
      {types.length > 0 ? (
        <>
          <dt>Price types</dt>
          <dd>{types.map(([type, n]) => `${type} ${n}`).join(', ')}</dd>
        </>
      ) : null}
      {decisions.defaultTaxUsed > 0 ? (
        <>
          <dt>Default tax</dt>
          <dd>
            {plural(
              decisions.defaultTaxUsed,
              'record without TAX took the shop’s',
              'records without TAX took the shop’s',
            )}
          </dd>
        </>
      ) : null}
    </>
  );
}

/**
 * Which catalog the file was and who sent it, as its BMEcat header said, one `<dt>`/`<dd>` pair
 * per thing it named; nothing for JSON Lines and older runs.
 */
function CatalogHeaderFields({ catalog }: { readonly catalog: ImportRun['catalog'] }) {
  if (catalog === null) return null;
  const id = [catalog.catalogId, catalog.catalogVersion === null ? null : `version ${catalog.catalogVersion}`]
    .filter((part) => part !== null)
    .join(', ');
  const supplier = [catalog.supplierName, catalog.supplierId === null ? null : `(${catalog.supplierId})`]
    .filter((part) => part !== null)
    .join(' ');
  const pairs: [string, string][] = [];
  if (id !== '' || catalog.catalogName !== null)
    pairs.push(['Catalog', [catalog.catalogName, id === '' ? null : id].filter((p) => p !== null).join(' · ')]);
  if (supplier !== '') pairs.push(['Supplier', supplier]);
  if (catalog.buyerName !== null) pairs.push(['Buyer', catalog.buyerName]);
  if (catalog.generationDate !== null || catalog.generatorInfo !== null)
    pairs.push([
      'File made',
      [catalog.generationDate, catalog.generatorInfo === null ? null : `by ${catalog.generatorInfo}`]
        .filter((p) => p !== null)
        .join(' '),
    ]);
  return (
    <>
      {pairs.map(([term, text]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{text}</dd>
        </Fragment>
      ))}
    </>
  );
}

/** A 1-based line, or a dash when the service knows none (0). */
function lineText(line: number): string | number {
  return line >= 1 ? line : '–';
}

/**
 * The full report of one recorded import, folded under its summary (a `details` disclosure, which
 * keyboards and screen readers know): outcome and counts, why nothing was committed, the refused
 * records with their line, supplier article id and reason in BMEcat's words, the elements of the
 * file Triad did not keep (element path, how many, first line), how it took the prices (price types,
 * the shop's default tax), and any other notes of the import.
 */
export function ImportReport({ run }: { readonly run: ImportRun }) {
  const { unkept, notes } = splitWarnings(run.warnings);
  const when = new Date(run.finishedAt).toLocaleString();
  const name = `${run.fileName}, import ${run.runNo}`;
  const { records, imported, added, updated, deleted, alreadyAbsent, refused } = run.counts;
  return (
    <details class="import-report">
      <summary>
        Import {run.runNo} ({run.fileName}, {when}): {reportSummaryText(run)}
      </summary>
      <dl class="fields import-counts">
        <CatalogHeaderFields catalog={run.catalog} />
        <dt>Records read</dt>
        <dd>{records}</dd>
        <dt>Imported</dt>
        <dd>
          {imported}
          {added !== null && updated !== null ? ` (${added} added, ${updated} updated)` : ''}
        </dd>
        {deleted > 0 || alreadyAbsent > 0 ? (
          <>
            <dt>Deleted</dt>
            <dd>
              {deleted}
              {alreadyAbsent > 0 ? `; ${alreadyAbsent} already absent` : ''}
            </dd>
          </>
        ) : null}
        <dt>Refused</dt>
        <dd>{refused}</dd>
        <PriceDecisions decisions={run.decisions} />
        {run.refusal ? (
          <>
            <dt>Nothing committed, because</dt>
            <dd class="refusal">{run.refusal}</dd>
          </>
        ) : null}
      </dl>
      {run.refusedRecords.length > 0 ? (
        <DataTable
          class="refused-records"
          caption={`Refused records of ${name}`}
          rows={run.refusedRecords}
          rowKey={(record, index) => `${record.line}-${index}`}
          columns={[
            {
              id: 'line',
              header: 'Line',
              rowHeader: true,
              sortValue: (record) => record.line,
              cell: (record) => lineText(record.line),
            },
            {
              id: 'article',
              header: 'Supplier article id',
              sortValue: (record) => record.supplierArticleId ?? '',
              cell: (record) => record.supplierArticleId ?? <span class="hint">none</span>,
            },
            { id: 'reason', header: 'Reason', cellClass: () => 'reason', cell: (record) => record.reason },
          ]}
        />
      ) : null}
      {run.refusedNotListed > 0 ? <p class="hint">… and {run.refusedNotListed} more refused, not listed.</p> : null}
      {unkept.length > 0 ? (
        <DataTable
          class="unkept-elements"
          caption={`Elements of ${name} that Triad did not keep`}
          rows={unkept}
          rowKey={(warning) => warning.path}
          columns={[
            {
              id: 'path',
              header: 'Element path',
              rowHeader: true,
              sortValue: (warning) => warning.path,
              cell: (warning) => (
                <>
                  <ElementPath path={warning.path} />
                  {warning.path.includes(EXTENSIONS) ? <span class="hint"> (user-defined extension)</span> : null}
                </>
              ),
            },
            { id: 'count', header: 'Times', sortValue: (warning) => warning.count, cell: (warning) => warning.count },
            {
              id: 'line',
              header: 'First line',
              sortValue: (warning) => warning.line,
              cell: (warning) => lineText(warning.line),
            },
          ]}
        />
      ) : null}
      {notes.length > 0 ? (
        <DataTable
          class="import-notes"
          caption={`Notes on ${name}`}
          rows={notes}
          rowKey={(warning) => `${warning.kind} ${warning.path}`}
          columns={[
            {
              id: 'path',
              header: 'Element path',
              rowHeader: true,
              sortValue: (warning) => warning.path,
              cell: (warning) => <ElementPath path={warning.path} />,
            },
            { id: 'count', header: 'Times', cell: (warning) => warning.count },
            { id: 'line', header: 'First line', cell: (warning) => lineText(warning.line) },
            { id: 'message', header: 'What happened', cellClass: () => 'reason', cell: (warning) => warning.message },
          ]}
        />
      ) : null}
      {run.counts.refused === 0 && run.warnings.length === 0 && !run.refusal ? (
        <p>Every record read was taken, with no warning.</p>
      ) : null}
    </details>
  );
}
