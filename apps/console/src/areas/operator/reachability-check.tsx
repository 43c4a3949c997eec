import { useState } from 'preact/hooks';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import type { OperatorClient } from './operator-client.js';
import { parseReachability, type Reachability, type ReachabilityWire } from './reachability-wire.js';

/**
 * The reachability analysis (`POST /api/topo/action/analyse-reachability`) of a node name: a form
 * ("Node name to check", prefilled with `name`), then the verdict, the checks performed in order
 * (the failed one marked, with its reason), the description and the hints. The verdict is also
 * announced in a polite status line.
 */
export function ReachabilityCheck(props: { readonly client: OperatorClient; readonly name?: string }) {
  const [name, setName] = useState(props.name ?? '');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [result, setResult] = useState<{ readonly name: string; readonly report: Reachability } | undefined>();
  const submit = (event: Event) => {
    event.preventDefault();
    const checked = name.trim();
    setBusy(true);
    setError(undefined);
    setStatus(`Analysing ${checked}…`);
    props.client
      .post<ReachabilityWire>('/api/topo/action/analyse-reachability', { name: checked })
      .then((wire) => {
        const report = parseReachability(wire);
        setResult({ name: checked, report });
        setStatus(`${checked} ${report.reachable ? 'should be reachable' : 'is not reachable'}.`);
      })
      .catch((reason: unknown) => {
        setStatus('');
        setError(errorMessage(reason));
      })
      .finally(() => setBusy(false));
  };
  const report = result?.report;
  const failed = report && !report.reachable ? report.checks.length - 1 : -1;
  return (
    <section aria-labelledby="reachability">
      <h2 id="reachability">Reachability</h2>
      <form class="inline-form" onSubmit={submit} aria-label="Analyse reachability">
        <label>
          Node name to check
          <input required placeholder="name@host" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Analyse reachability
        </button>
      </form>
      <p role="status">{status}</p>
      <ErrorAlert message={error} />
      {result && report ? (
        <div class="reachability-report">
          <h3 class={report.reachable ? 'state-UP' : 'state-DOWN'}>
            {result.name} {report.reachable ? 'should be reachable' : 'is not reachable'}
          </h3>
          <p>{report.description}</p>
          <h4 id="reachability-checks">Checks performed</h4>
          <ol aria-labelledby="reachability-checks">
            {report.checks.map((check, i) => (
              <li key={check}>
                <code>{check}</code>
                {i === failed ? (
                  <>
                    {' '}
                    <strong>failed</strong>
                    {report.reasonCode ? (
                      <>
                        : <code>{report.reasonCode}</code>
                      </>
                    ) : null}
                    {report.reasonDetails ? ` (${report.reasonDetails})` : null}
                  </>
                ) : (
                  ' passed'
                )}
              </li>
            ))}
          </ol>
          <h4 id="reachability-hints">Hints</h4>
          {report.hints.length === 0 ? (
            <p>No hints.</p>
          ) : (
            <ul aria-labelledby="reachability-hints">
              {report.hints.map((hint) => (
                <li key={hint}>{hint}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </section>
  );
}
