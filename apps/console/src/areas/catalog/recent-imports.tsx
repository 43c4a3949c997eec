import { DataTable } from '../../shell/data-table.js';
import { HttpError } from '../../shell/http-error.js';
import type { SortState } from '../../shell/table-sort.js';
import { importRuns } from './catalog-client.js';
import { ImportReport } from './import-report.js';
import type { ImportRun } from './catalog-wire.js';
import { RemoteFailure } from './remote-failure.js';
import { useRemote } from './use-remote.js';

export interface RecentImportsProps {
  readonly adminToken: string;
  readonly shopId: string;
  readonly shopName: string;
  /** Called when the service no longer takes the admin token (401 or 403). */
  readonly onAdminRefused: () => void;
}

const OUTCOMES: Readonly<Record<ImportRun['outcome'], string>> = {
  committed: 'Committed',
  'committed-with-refusals': 'Committed with refusals',
  refused: 'Refused: nothing committed',
};

/** Outcomes from best to worst, the order the Outcome column sorts in. */
const OUTCOME_ORDER: readonly ImportRun['outcome'][] = ['committed', 'committed-with-refusals', 'refused'];

/** The order the service lists the runs in. */
const NEWEST_FIRST: SortState = { column: 'when', direction: 'descending' };

/** How the caption tells the order of the runs. */
function orderText(sort: SortState | undefined): string {
  if (sort?.column === 'when') return sort.direction === 'descending' ? 'newest first' : 'oldest first';
  if (sort?.column === 'file') return sort.direction === 'ascending' ? 'by file name' : 'by file name, Z to A';
  if (sort?.column === 'outcome') return sort.direction === 'ascending' ? 'committed first' : 'refused first';
  return 'newest first';
}

const FORMATS: Readonly<Record<ImportRun['format'], string>> = { bmecat: 'BMEcat', jsonl: 'JSON Lines' };

/**
 * A shop's recent catalog imports (admin API): when, file, outcome and counts, newest first,
 * and below them each run's full report, folded (`ImportReport`).
 */
export function RecentImports({ adminToken, shopId, shopName, onAdminRefused }: RecentImportsProps) {
  const runs = useRemote(
    `imports-${shopId}-${adminToken}`,
    async (signal) => (await importRuns(adminToken, shopId, signal)).members,
    (error) => {
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) onAdminRefused();
    },
  );
  const headingId = `shop-${shopId}-imports`;
  return (
    <section class="recent-imports" aria-labelledby={headingId}>
      <h3 id={headingId}>Recent imports</h3>
      {runs.state === 'loading' ? <p aria-live="polite">Loading the imports…</p> : null}
      <RemoteFailure remote={runs} />
      {runs.state === 'ready' ? (
        <>
          <DataTable
            class="imports"
            caption={(sort) => `Recent imports of ${shopName}, ${orderText(sort)}`}
            initialSort={NEWEST_FIRST}
            rows={runs.value}
            rowKey={(run) => run.runNo}
            empty="No import recorded yet."
            columns={[
              {
                id: 'when',
                header: 'When',
                firstDirection: 'descending',
                sortValue: (run) => Date.parse(run.finishedAt),
                cell: (run) => <time dateTime={run.finishedAt}>{new Date(run.finishedAt).toLocaleString()}</time>,
              },
              {
                id: 'file',
                header: 'File',
                rowHeader: true,
                sortValue: (run) => run.fileName,
                cell: (run) => (
                  <>
                    {run.fileName}
                    <span class="hint">
                      {' '}
                      ({FORMATS[run.format]}
                      {run.mode ? `, ${run.mode}` : ''})
                    </span>
                  </>
                ),
              },
              {
                id: 'outcome',
                header: 'Outcome',
                sortValue: (run) => OUTCOME_ORDER.indexOf(run.outcome),
                cellClass: (run) => `outcome ${run.outcome}`,
                cell: (run) => (
                  <>
                    {OUTCOMES[run.outcome]}
                    {run.refusal ? <span class="refusal">{run.refusal}</span> : null}
                  </>
                ),
              },
              { id: 'counts', header: 'Counts', cell: countsText },
            ]}
          />
          {runs.value.length > 0 ? (
            <section class="import-reports" aria-labelledby={`${headingId}-reports`}>
              <h4 id={`${headingId}-reports`}>Import reports</h4>
              {runs.value.map((run) => (
                <ImportReport key={run.runNo} run={run} />
              ))}
            </section>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/** The counts that say something about a run: `12 read, 10 imported (3 added, 7 updated), 2 refused, 1 warning`. */
export function countsText(run: ImportRun): string {
  const { records, imported, added, updated, deleted, alreadyAbsent, refused } = run.counts;
  const parts = [`${records} read`];
  if (run.outcome !== 'refused' || imported > 0) {
    const split = added !== null && updated !== null ? ` (${added} added, ${updated} updated)` : '';
    parts.push(`${imported} imported${split}`);
  }
  if (deleted > 0) parts.push(`${deleted} deleted`);
  if (alreadyAbsent > 0) parts.push(`${alreadyAbsent} already absent`);
  parts.push(`${refused} refused`);
  if (run.warnings.length > 0) parts.push(`${run.warnings.length} warning${run.warnings.length === 1 ? '' : 's'}`);
  return parts.join(', ');
}
