/**
 * The device screen the template declares (`representation`): its widgets on the 8-column grid,
 * each showing the device's current values by the aliases and units the template gives. A map
 * widget lists fields, a table widget rows, a metric widget one value as a card, a gauge widget a
 * dial with its coloured bands. On a narrow screen the widgets stack in one column.
 */
import { TableScroll } from '../../shell/table-scroll.js';
import type { DeviceValue } from './device-wire.js';
import { formatNumber, formatValue, severityLevel } from './device-words.js';
import { findDatapoint, type TemplateOutline, type Widget, type WidgetField } from './template-outline.js';

export interface DeviceWidgetsProps {
  readonly outline: TemplateOutline;
  readonly values: readonly DeviceValue[];
}

/** The value of one datapoint (of one row, for tables), if a reading arrived. */
function valueOf(
  values: readonly DeviceValue[],
  setId: string,
  datapointId: string,
  row?: string,
): DeviceValue | undefined {
  return values.find(
    (v) =>
      v.datapointSetId === setId &&
      v.datapointId === datapointId &&
      (row === undefined || String(v.row ?? '') === row || (row === '0' && v.row === null)),
  );
}

/** The alias and unit the template gives a datapoint; a field's own alias comes first. */
function describe(outline: TemplateOutline, setId: string, field: WidgetField) {
  const found = findDatapoint(outline, setId, field.datapoint);
  return { alias: field.alias ?? found?.datapoint.alias ?? field.datapoint, unit: found?.datapoint.unit };
}

function shown(value: DeviceValue | undefined, unit: string | undefined, fieldType?: string): string {
  if (value === undefined) return 'no reading yet';
  return formatValue(value.value, value.unit ?? unit, fieldType);
}

function MapWidget({ widget, outline, values }: WidgetProps) {
  return (
    <dl class="tpl-widget-fields">
      {widget.fields.map((field) => {
        const { alias, unit } = describe(outline, widget.setId, field);
        const value = valueOf(values, widget.setId, field.datapoint, widget.row);
        return (
          <div key={field.datapoint}>
            <dt>{alias}</dt>
            <dd class={fieldClass(value, field.fieldType)}>{shown(value, unit, field.fieldType)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

/** A class for the reading: a boolean reads as a status (yes good, no bad), a severity by its band. */
function fieldClass(value: DeviceValue | undefined, fieldType: string | undefined): string | undefined {
  if (value === undefined || value.quality !== 'good') return 'tpl-widget-none';
  if (fieldType === 'boolean' && typeof value.value === 'boolean') return value.value ? 'tpl-good' : 'tpl-bad';
  if (fieldType === 'severity' && typeof value.value === 'number') return `tpl-severity-${severityLevel(value.value)}`;
  return undefined;
}

function TableWidget({ widget, outline, values, titleId }: WidgetProps) {
  const rows = [...new Set(values.filter((v) => v.datapointSetId === widget.setId).map((v) => String(v.row ?? '')))];
  return (
    <TableScroll labelledBy={titleId}>
      <table aria-labelledby={titleId}>
        <thead>
          <tr>
            {widget.fields.map((field) => (
              <th key={field.datapoint} scope="col">
                {describe(outline, widget.setId, field).alias}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={widget.fields.length}>No rows yet.</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row}>
                {widget.fields.map((field) => {
                  const value = valueOf(values, widget.setId, field.datapoint, row);
                  return (
                    <td key={field.datapoint} class={fieldClass(value, field.fieldType)}>
                      {shown(value, describe(outline, widget.setId, field).unit, field.fieldType)}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </TableScroll>
  );
}

function MetricWidget({ widget, outline, values }: WidgetProps) {
  const datapointId = widget.datapointId ?? widget.fields[0]?.datapoint;
  if (datapointId === undefined) return <p>No datapoint named.</p>;
  const found = findDatapoint(outline, widget.setId, datapointId);
  const value = valueOf(values, widget.setId, datapointId, widget.row);
  return (
    <p class="tpl-metric">
      <span class="tpl-metric-value">{shown(value, found?.datapoint.unit)}</span>
      {widget.title !== found?.datapoint.alias && found ? (
        <span class="tpl-muted"> {found.datapoint.alias}</span>
      ) : null}
    </p>
  );
}

/** A point on the dial's arc for a fraction 0..1 of the way from its left end to its right. */
function arcPoint(fraction: number, radius: number): { x: number; y: number } {
  const angle = Math.PI * (1 - Math.min(1, Math.max(0, fraction)));
  return { x: 60 + radius * Math.cos(angle), y: 60 - radius * Math.sin(angle) };
}

function arc(from: number, to: number, radius: number): string {
  const a = arcPoint(from, radius);
  const b = arcPoint(to, radius);
  return `M ${a.x.toFixed(2)} ${a.y.toFixed(2)} A ${radius} ${radius} 0 0 1 ${b.x.toFixed(2)} ${b.y.toFixed(2)}`;
}

function GaugeWidget({ widget, outline, values }: WidgetProps) {
  const min = widget.minValue ?? 0;
  const max = widget.maxValue ?? 100;
  const span = max - min || 1;
  const fraction = (n: number) => (n - min) / span;
  return (
    <div class="tpl-gauges">
      {widget.fields.map((field) => {
        const found = findDatapoint(outline, widget.setId, field.datapoint);
        const value = valueOf(values, widget.setId, field.datapoint, widget.row);
        const unit = value?.unit ?? field.units ?? found?.datapoint.unit;
        const number = typeof value?.value === 'number' ? value.value : undefined;
        const alias = field.alias ?? found?.datapoint.alias ?? field.datapoint;
        const text = number === undefined ? shown(value, unit) : formatValue(number, unit);
        const needle = number === undefined ? undefined : arcPoint(fraction(number), 44);
        return (
          <figure key={field.datapoint} class="tpl-gauge">
            <svg
              viewBox="0 0 120 70"
              role="img"
              aria-label={`${alias}: ${text}, on a dial from ${formatNumber(min)} to ${formatNumber(max)}`}
            >
              <path d={arc(0, 1, 50)} class="tpl-gauge-track" />
              {widget.bands.map((band, i) => (
                <path
                  key={i}
                  d={arc(fraction(band.from), fraction(band.to), 50)}
                  class={`tpl-gauge-band tpl-severity-${severityLevel(band.severity)}`}
                />
              ))}
              {needle ? (
                <line
                  x1="60"
                  y1="60"
                  x2={needle.x.toFixed(2)}
                  y2={needle.y.toFixed(2)}
                  class="tpl-gauge-needle"
                  style={field.color ? { stroke: field.color } : undefined}
                />
              ) : null}
              <circle cx="60" cy="60" r="3" class="tpl-gauge-hub" />
            </svg>
            <figcaption>
              <strong>{text}</strong>
              {widget.fields.length > 1 || alias !== widget.title ? <span> {alias}</span> : null}
              <span class="tpl-muted tpl-gauge-range">
                {formatNumber(min)} to {formatNumber(max)}
                {unit ? ` ${unit}` : ''}
              </span>
            </figcaption>
          </figure>
        );
      })}
    </div>
  );
}

interface WidgetProps {
  readonly widget: Widget;
  readonly outline: TemplateOutline;
  readonly values: readonly DeviceValue[];
  /** Id of the widget's heading. */
  readonly titleId: string;
}

const BODIES = { map: MapWidget, table: TableWidget, metric: MetricWidget, gauge: GaugeWidget } as const;

/** The widgets of the template, placed on its grid. */
export function DeviceWidgets({ outline, values }: DeviceWidgetsProps) {
  return (
    <div class="tpl-widgets">
      {outline.widgets.map((widget, index) => {
        const Body = BODIES[widget.type];
        const id = `tpl-widget-${index}`;
        return (
          <section
            key={index}
            class={`tpl-widget tpl-widget-${widget.type}`}
            aria-labelledby={id}
            style={{
              gridColumn: `${widget.firstColumn} / span ${Math.min(widget.width, 9 - widget.firstColumn)}`,
              gridRow: `${widget.firstRow} / span ${widget.height}`,
            }}
          >
            <h3 id={id}>{widget.title}</h3>
            <Body widget={widget} outline={outline} values={values} titleId={id} />
          </section>
        );
      })}
    </div>
  );
}
