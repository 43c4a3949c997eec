/**
 * "Try it": sample raw values of one datapoint through the value pipeline of the stored version
 * (`POST /templates/:id/:version/evaluate`), showing the values, the alarms raised and cleared and
 * the other events.
 */
import { useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { errorMessage } from '../../shell/error-alert.js';
import { evaluateTemplate, type EvaluateReply, type PipelineEvent } from './templates-api.js';

export interface TryItPanelProps {
  readonly templateId: string;
  readonly templateVersion: string;
  readonly datapointSetId: string;
  readonly datapointId: string;
}

/** A sample typed in the form: JSON when it parses (`85`, `true`, `"up"`), else the text. */
export function parseSample(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function describeEvent(event: PipelineEvent): string {
  const where = event.datapointId ? `${event.datapointSetId ?? ''}/${event.datapointId}` : '';
  switch (event.type) {
    case 'alarm-raised':
      return `Alarm raised (${event.level ?? ''} ${event.severity ?? ''}) on ${where}: ${event.text ?? ''}`;
    case 'alarm-cleared':
      return `Alarm cleared on ${where}: ${event.text ?? ''}`;
    case 'log':
      return `Log (${event.severity ?? ''}) on ${where}: ${event.text ?? ''}`;
    case 'evaluation-error':
    case 'update-rejected':
      return `${event.type} on ${where}: ${event.code ?? ''} ${event.message ?? ''}`;
  }
}

/** The try-it panel. */
export function TryItPanel(props: TryItPanelProps) {
  const [setId, setSetId] = useState(props.datapointSetId);
  const [datapointId, setDatapointId] = useState(props.datapointId);
  const [samples, setSamples] = useState('10, 90, 20');
  const [reply, setReply] = useState<EvaluateReply | undefined>();
  const [error, setError] = useState('');
  const run = async (event: Event) => {
    event.preventDefault();
    setError('');
    const updates = samples
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((s) => ({ datapointSetId: setId, datapointId, rawValue: parseSample(s) }));
    try {
      setReply(await evaluateTemplate(props.templateId, props.templateVersion, updates));
    } catch (e) {
      setReply(undefined);
      setError(errorMessage(e));
    }
  };
  return (
    <section class="tpl-try" aria-labelledby="tpl-try-title">
      <h2 id="tpl-try-title">Try it</h2>
      <p class="tpl-muted">
        Runs the value pipeline of the saved version {props.templateVersion} (save first to try your edits).
      </p>
      <form onSubmit={(e) => void run(e)}>
        <label>
          Datapoint set
          <input value={setId} onInput={(e) => setSetId(e.currentTarget.value)} required />
        </label>
        <label>
          Datapoint
          <input value={datapointId} onInput={(e) => setDatapointId(e.currentTarget.value)} required />
        </label>
        <label>
          Raw values (comma-separated)
          <input value={samples} onInput={(e) => setSamples(e.currentTarget.value)} required />
        </label>
        <button type="submit" class="primary">
          Run pipeline
        </button>
      </form>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      {reply ? (
        <div aria-live="polite">
          <DataTable
            caption="Values"
            rows={reply.values}
            rowKey={(_, index) => index}
            columns={[
              { id: 'datapoint', header: 'Datapoint', cell: (v) => `${v.datapointSetId}/${v.datapointId}` },
              { id: 'raw', header: 'Raw value', cell: (v) => show(v.rawValue) },
              { id: 'value', header: 'Value', cell: (v) => `${show(v.value)}${v.unit ? ` ${v.unit}` : ''}` },
              { id: 'quality', header: 'Quality', cell: (v) => v.quality },
            ]}
          />
          <h3>Events</h3>
          {reply.events.length === 0 ? <p>No events</p> : null}
          <ul aria-label="Events">
            {reply.events.map((e, i) => (
              <li key={i} class={`tpl-event tpl-${e.type}`}>
                {describeEvent(e)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
