import { HttpError } from '../../shell/http-error.js';
import { importRuns } from './catalog-client.js';
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

const FORMATS: Readonly<Record<ImportRun['format'], string>> = { bmecat: 'BMEcat', jsonl: 'JSON Lines' };

/**
 * A shop's recent catalog imports (admin API): when, file, outcome and counts, newest first,
 * and for each run with refused records those records with their line and reason.
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
      {runs.state === 'ready' && runs.value.length === 0 ? <p class="hint">No import recorded yet.</p> : null}
      {runs.state === 'ready' && runs.value.length > 0 ? (
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-labelledby={`${headingId}-caption`}>
            <table class="imports">
              <caption id={`${headingId}-caption`}>Recent imports of {shopName}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">File</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Counts</th>
                </tr>
              </thead>
              <tbody>
                {runs.value.map((run) => (
                  <tr key={run.runNo}>
                    <td>
                      <time dateTime={run.finishedAt}>{new Date(run.finishedAt).toLocaleString()}</time>
                    </td>
                    <th scope="row">
                      {run.fileName}
                      <span class="hint">
                        {' '}
                        ({FORMATS[run.format]}
                        {run.mode ? `, ${run.mode}` : ''})
                      </span>
                    </th>
                    <td class={`outcome ${run.outcome}`}>
                      {OUTCOMES[run.outcome]}
                      {run.refusal ? <span class="refusal">{run.refusal}</span> : null}
                    </td>
                    <td>{countsText(run)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {runs.value
            .filter((run) => run.refusedRecords.length > 0)
            .map((run) => (
              <RefusedRecords key={run.runNo} run={run} />
            ))}
        </>
      ) : null}
    </section>
  );
}

function RefusedRecords({ run }: { readonly run: ImportRun }) {
  const { refused } = run.counts;
  const when = new Date(run.finishedAt).toLocaleString();
  return (
    <details class="refused-records">
      <summary>
        {`${refused} refused record${refused === 1 ? '' : 's'} of import ${run.runNo} (${run.fileName}, ${when})`}
      </summary>
      <div class="table-wrap">
        <table>
          <caption>
            Refused records of {run.fileName}, import {run.runNo}
          </caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {run.refusedRecords.map((record, index) => (
              <tr key={`${record.line}-${index}`}>
                <th scope="row">{record.line}</th>
                <td>{record.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {run.refusedNotListed > 0 ? <p class="hint">… and {run.refusedNotListed} more not listed.</p> : null}
    </details>
  );
}

/** The counts that say something about a run: `12 read, 10 imported (3 added, 7 updated), 2 refused`. */
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
  return parts.join(', ');
}
