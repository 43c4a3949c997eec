/**
 * What the console needs of a template document (`GET /templates/{id}/{version}`, JSON): its
 * datapoint sets and datapoints with their aliases, data types and units, and its widgets
 * (`representation`). Read leniently: a member of the wrong shape is left out, never thrown on
 * (a stored version is valid, but the console must not break on a field it does not know).
 */

/** A datapoint as the console shows and tries it. */
export interface OutlineDatapoint {
  readonly id: string;
  /** `commonConfig.alias`, else the id. */
  readonly alias: string;
  /** `addressConfig.dataType`; undefined for calculated and default-only datapoints. */
  readonly dataType?: string;
  /** A driver sets it (`addressConfig`); a calculated one (`calcConfig`) is not set from outside. */
  readonly calculated: boolean;
  /** `unitsConfig.to` when the template asks to show the unit (`units: true`). */
  readonly unit?: string;
}

export interface OutlineSet {
  readonly id: string;
  readonly alias: string;
  readonly table: boolean;
  readonly datapoints: readonly OutlineDatapoint[];
}

/** One field (map, table) or needle (gauge) of a widget. */
export interface WidgetField {
  readonly datapoint: string;
  readonly alias?: string;
  /** `string`, `boolean`, `numeric`, `date` or `severity`. */
  readonly fieldType?: string;
  /** A gauge needle's unit. */
  readonly units?: string;
  /** A gauge needle's colour (`#45A5F5`). */
  readonly color?: string;
  readonly order: number;
}

export interface GaugeBand {
  readonly from: number;
  readonly to: number;
  readonly severity: number;
}

/** One widget of `representation`: what it shows, where, and how. */
export interface Widget {
  readonly type: 'map' | 'table' | 'metric' | 'gauge';
  readonly title: string;
  readonly setId: string;
  /** For `device[set.datapoint]` and `device[set.row.datapoint]`. */
  readonly datapointId?: string;
  readonly row?: string;
  readonly firstRow: number;
  readonly firstColumn: number;
  readonly width: number;
  readonly height: number;
  readonly fields: readonly WidgetField[];
  readonly minValue?: number;
  readonly maxValue?: number;
  readonly bands: readonly GaugeBand[];
}

export interface TemplateOutline {
  readonly sets: readonly OutlineSet[];
  readonly widgets: readonly Widget[];
}

type Json = Readonly<Record<string, unknown>>;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(value: unknown, key: string): Json {
  const member = isJson(value) ? value[key] : undefined;
  return isJson(member) ? member : {};
}

function listAt(value: unknown, key: string): readonly unknown[] {
  const member = isJson(value) ? value[key] : undefined;
  return Array.isArray(member) ? member : [];
}

function textAt(value: unknown, key: string): string | undefined {
  const member = isJson(value) ? value[key] : undefined;
  return typeof member === 'string' && member !== '' ? member : undefined;
}

function numberAt(value: unknown, key: string): number | undefined {
  const member = isJson(value) ? value[key] : undefined;
  return typeof member === 'number' && Number.isFinite(member) ? member : undefined;
}

function datapointOf(entry: unknown): OutlineDatapoint | undefined {
  const common = objectAt(entry, 'commonConfig');
  const id = textAt(common, 'datapointId');
  if (id === undefined) return undefined;
  const address = isJson(entry) && isJson(entry['addressConfig']) ? entry['addressConfig'] : undefined;
  const units = objectAt(entry, 'unitsConfig');
  const unit = units['units'] === true ? textAt(units, 'to') : undefined;
  const dataType = address ? textAt(address, 'dataType') : undefined;
  return {
    id,
    alias: textAt(common, 'alias') ?? id,
    calculated: isJson(entry) && isJson(entry['calcConfig']),
    ...(dataType !== undefined ? { dataType } : {}),
    ...(unit !== undefined ? { unit } : {}),
  };
}

const WIDGET_TYPES = ['map', 'table', 'metric', 'gauge'] as const;
const DATA = /^device\[([a-zA-Z0-9_-]{1,40})(?:(?:\.([0-9]+))?\.([a-zA-Z0-9#&_-]{1,80}))?\]$/;

function widgetOf(entry: unknown): Widget | undefined {
  const common = objectAt(entry, 'commonConfig');
  const specific = objectAt(entry, 'specificConfig');
  const type = WIDGET_TYPES.find((t) => t === common['widgetType']);
  const data = DATA.exec(textAt(entry, 'data') ?? '');
  if (type === undefined || !data?.[1]) return undefined;
  const fields = listAt(specific, 'format').flatMap((field, index): WidgetField[] => {
    const datapoint = textAt(field, 'datapoint');
    if (datapoint === undefined) return [];
    const alias = textAt(field, 'alias');
    const fieldType = textAt(field, 'fieldType');
    const units = textAt(field, 'units');
    const color = /^#[0-9a-fA-F]{3,8}$/.exec(textAt(field, 'color') ?? '')?.[0];
    return [
      {
        datapoint,
        order: numberAt(field, 'order') ?? index,
        ...(alias !== undefined ? { alias } : {}),
        ...(fieldType !== undefined ? { fieldType } : {}),
        ...(units !== undefined ? { units } : {}),
        ...(color !== undefined ? { color } : {}),
      },
    ];
  });
  const bands = listAt(specific, 'ranges').flatMap((band): GaugeBand[] => {
    const from = numberAt(band, 'from');
    const to = numberAt(band, 'to');
    const severity = numberAt(band, 'severity');
    return from === undefined || to === undefined || severity === undefined ? [] : [{ from, to, severity }];
  });
  const minValue = numberAt(specific, 'minValue');
  const maxValue = numberAt(specific, 'maxValue');
  return {
    type,
    title: textAt(common, 'widgetTitle') ?? '',
    setId: data[1],
    ...(data[3] !== undefined ? { datapointId: data[3] } : {}),
    ...(data[2] !== undefined ? { row: data[2] } : {}),
    firstRow: numberAt(common, 'firstRow') ?? 1,
    firstColumn: numberAt(common, 'firstColumn') ?? 1,
    width: numberAt(common, 'widgetWidth') ?? 8,
    height: numberAt(common, 'widgetHeight') ?? 1,
    fields: [...fields].sort((a, b) => a.order - b.order),
    bands,
    ...(minValue !== undefined ? { minValue } : {}),
    ...(maxValue !== undefined ? { maxValue } : {}),
  };
}

/** The outline of a template document. */
export function templateOutline(document: unknown): TemplateOutline {
  const sets = listAt(document, 'datapointSets').flatMap((entry): OutlineSet[] => {
    const id = textAt(entry, 'datapointSetId');
    if (id === undefined) return [];
    const type = textAt(entry, 'datapointSetType');
    return [
      {
        id,
        alias: textAt(entry, 'alias') ?? id,
        table: type === 'tableStatic' || type === 'tableDynamic',
        datapoints: listAt(entry, 'datapoints').flatMap((dp) => datapointOf(dp) ?? []),
      },
    ];
  });
  const widgets = listAt(document, 'representation').flatMap((entry) => widgetOf(entry) ?? []);
  return { sets, widgets };
}

/** The datapoint `setId`/`datapointId` of an outline. */
export function findDatapoint(
  outline: TemplateOutline,
  setId: string,
  datapointId: string,
): { readonly set: OutlineSet; readonly datapoint: OutlineDatapoint } | undefined {
  const set = outline.sets.find((s) => s.id === setId);
  const datapoint = set?.datapoints.find((d) => d.id === datapointId);
  return set && datapoint ? { set, datapoint } : undefined;
}
