/**
 * "Try it": sample raw values of one datapoint through the value pipeline of the stored version
 * (`POST /templates/:id/:version/evaluate`), showing the values, the alarms raised and cleared and
 * the other events.
 */
import { useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { errorMessage } from '../../shell/error-alert.js';
import { severityText } from './device-words.js';
import { findDatapoint, type TemplateOutline } from './template-outline.js';
import { evaluateTemplate, type EvaluateReply, type PipelineEvent } from './templates-api.js';
import { exampleSamples, readSample, splitSamples } from './try-samples.js';

export interface TryItPanelProps {
  readonly templateId: string;
  readonly templateVersion: string;
  /** The saved version's datapoint sets; the panel offers their datapoints a driver sets. */
  readonly outline: TemplateOutline;
}

const SEPARATOR = '\u0000';

/** The datapoints a driver sets (calculated ones are refused by the pipeline), set by set. */
function settable(outline: TemplateOutline) {
  return outline.sets
    .map((set) => ({ set, datapoints: set.datapoints.filter((d) => !d.calculated) }))
    .filter((group) => group.datapoints.length > 0);
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function describeEvent(event: PipelineEvent): string {
  const where = event.datapointId ? `${event.datapointSetId ?? ''}/${event.datapointId}` : '';
  switch (event.type) {
    case 'alarm-raised': {
      const severity = event.severity === undefined ? '' : ` (${severityText(event.severity)})`;
      return `Alarm raised${severity} on ${where}: ${event.text ?? ''}`;
    }
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
  const groups = settable(props.outline);
  const first = groups[0];
  const [chosen, setChosen] = useState(first ? `${first.set.id}${SEPARATOR}${first.datapoints[0]?.id ?? ''}` : '');
  const [setId = '', datapointId = ''] = chosen.split(SEPARATOR);
  const datapoint = findDatapoint(props.outline, setId, datapointId)?.datapoint;
  const [samples, setSamples] = useState(exampleSamples(datapoint?.dataType));
  const [edited, setEdited] = useState(false);
  const [reply, setReply] = useState<EvaluateReply | undefined>();
  const [error, setError] = useState('');
  const choose = (value: string) => {
    setChosen(value);
    const [nextSet = '', nextId = ''] = value.split(SEPARATOR);
    // Untouched examples follow the datapoint's type; typed values stay (and are checked).
    if (!edited) setSamples(exampleSamples(findDatapoint(props.outline, nextSet, nextId)?.datapoint.dataType));
  };
  const run = async (event: Event) => {
    event.preventDefault();
    setError('');
    const read = splitSamples(samples).map((text) => readSample(text, datapoint?.dataType));
    const refused = read.flatMap((sample) => ('problem' in sample ? [sample.problem] : []));
    if (refused.length > 0) {
      setReply(undefined);
      setError(
        `Not run: ${refused.join('; ')}. ${datapoint?.alias ?? datapointId} is ${datapoint?.dataType ?? ''}, and ` +
          'a driver hands the pipeline only values of that type. Change the raw values and run again.',
      );
      return;
    }
    const updates = read.map((sample) => ({
      datapointSetId: setId,
      datapointId,
      rawValue: 'value' in sample ? sample.value : null,
    }));
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
        {/* Named by for/id: a label around a select would take the chosen option into its name. */}
        <div class="tpl-try-field">
          <label for="tpl-try-datapoint">Datapoint</label>
          <select id="tpl-try-datapoint" value={chosen} onChange={(e) => choose(e.currentTarget.value)} required>
            {groups.map(({ set, datapoints }) => (
              <optgroup key={set.id} label={set.alias}>
                {datapoints.map((d) => (
                  <option key={d.id} value={`${set.id}${SEPARATOR}${d.id}`}>
                    {d.alias} ({d.dataType ?? 'no type'})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <label>
          Raw values (comma-separated)
          <input
            value={samples}
            onInput={(e) => {
              setSamples(e.currentTarget.value);
              setEdited(true);
            }}
            required
          />
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
              {
                id: 'datapoint',
                header: 'Datapoint',
                cell: (v) =>
                  findDatapoint(props.outline, v.datapointSetId, v.datapointId)?.datapoint.alias ?? v.datapointId,
              },
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
