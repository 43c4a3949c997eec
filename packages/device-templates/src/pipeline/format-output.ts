import type { DatapointResult, PipelineEvent, TableIndex } from './pipeline-types.js';

const MAX_SHOWN = 200;

/**
 * One line of text for a value: `VALUE system/uptime = 12.5 MB`, with the row of a table
 * (`ifTable[3]/ifOperStatus`), `(default)` for substituted values and the quality when it is not
 * `good`. The origin is shown (`10.0.0.2 system/...`) when it differs from `defaultOrigin`.
 */
export function formatValueLine(result: DatapointResult, defaultOrigin: string): string {
  const unit = result.unit !== undefined ? ` ${result.unit}` : '';
  const notes = [
    result.defaulted ? 'default' : '',
    result.quality !== 'good' ? `quality ${result.quality}` : '',
  ].filter(Boolean);
  return (
    `VALUE ` +
    `${place(result.origin, result.datapointSetId, result.datapointId, result.tableIndex, defaultOrigin)} = ` +
    `${show(result.value)}${unit}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`
  );
}

/**
 * One line of text for an event:
 * `RAISE 401 warning system/packetLoss: <text>`, `CLEAR ...`, `LOG 50 notification ...`,
 * `ERROR system/x conversion: <message> [CODE]`, `REJECT <message> [CODE]`.
 */
export function formatEventLine(event: PipelineEvent, defaultOrigin: string): string {
  switch (event.type) {
    case 'alarm-raised':
    case 'alarm-cleared':
    case 'log': {
      const verb = event.type === 'alarm-raised' ? 'RAISE' : event.type === 'alarm-cleared' ? 'CLEAR' : 'LOG';
      const where = place(event.origin, event.datapointSetId, event.datapointId, event.tableIndex, defaultOrigin);
      const value =
        event.value !== undefined
          ? ` (value ${show(event.value)})`
          : event.reason === 'row-removed'
            ? ' (row removed)'
            : '';
      return `${verb} ${event.severity} ${event.level} ${where}: ${event.text}${value}`;
    }
    case 'evaluation-error':
      return (
        `ERROR ` +
        `${place(event.origin, event.datapointSetId, event.datapointId, event.tableIndex, defaultOrigin)} ` +
        `${event.stage}: ${event.message} [${event.code}]`
      );
    case 'update-rejected':
      return `REJECT ${event.message} [${event.code}]`;
  }
}

function place(
  origin: string,
  setId: string,
  datapointId: string,
  tableIndex: TableIndex | undefined,
  defaultOrigin: string,
): string {
  const row = tableIndex !== undefined ? `[${tableIndex}]` : '';
  return `${origin !== defaultOrigin ? `${origin} ` : ''}${setId}${row}/${datapointId}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
