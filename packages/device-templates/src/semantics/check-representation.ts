import type { DocumentPath } from '../problem.js';
import type { SemanticCheck, SemanticReporter } from './semantic-reporter.js';
import { isObject } from '@triad/common';
import { arrayAt, type SetEntry } from './template-walker.js';
import { suggestName } from './suggest-name.js';

/** The device screen is 8 columns wide. */
export const GRID_COLUMNS = 8;

// Same shape as the schema's pattern for `data`, with groups: set, optional row, optional datapoint.
const DATA = /^device\[([a-zA-Z0-9_-]{1,40})(?:(?:\.([0-9]+))?\.([a-zA-Z0-9#&_-]{1,80}))?\]$/;

interface Placed {
  readonly index: number;
  readonly row: number;
  readonly column: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Checks `representation[]` widgets: `data` names an existing set (and datapoint; a row index
 * only for a table set), `specificConfig.format[].datapoint` exists in that set, no widget shows
 * a `#TIMEPOINT` datapoint, widgets fit the 8-column grid and do not cover the same cells.
 * A `data` value that does not match the schema's pattern is left to the schema.
 */
export const checkRepresentation: SemanticCheck = (model, reporter) => {
  const items = arrayAt(model.root, 'representation');
  const placed: Placed[] = [];
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isObject(item)) continue;
    const path: DocumentPath = ['representation', i];
    const set =
      typeof item['data'] === 'string'
        ? checkData(item['data'], [...path, 'data'], model.setsById, reporter)
        : undefined;
    const specific = item['specificConfig'];
    if (set !== undefined && isObject(specific)) {
      const format = arrayAt(specific, 'format');
      for (let f = 0; f < format.length; f++) {
        const entry: unknown = format[f];
        if (!isObject(entry) || typeof entry['datapoint'] !== 'string') continue;
        checkDatapoint(set, entry['datapoint'], [...path, 'specificConfig', 'format', f, 'datapoint'], reporter);
      }
    }
    const common = item['commonConfig'];
    if (isObject(common)) {
      const box = placeOf(common, i);
      if (box !== undefined) {
        checkGrid(box, [...path, 'commonConfig'], reporter);
        checkOverlap(box, placed, reporter);
        placed.push(box);
      }
    }
  }
};

function checkData(
  data: string,
  path: DocumentPath,
  sets: ReadonlyMap<string, SetEntry>,
  reporter: SemanticReporter,
): SetEntry | undefined {
  const match = DATA.exec(data);
  if (match === null) return undefined;
  const [, setId = '', row, datapointId] = match;
  const set = sets.get(setId);
  if (set === undefined) {
    const suggestion = suggestName(setId, [...sets.keys()]);
    reporter.report('DT_WARN_SEM_REPRESENTATION_SET_UNKNOWN', path, {
      message:
        `The widget shows the datapointSet '${setId}', which the template does not have` +
        (suggestion !== undefined ? `; did you mean device[${data.slice(7, -1).replace(setId, suggestion)}]?` : '.'),
      found: data,
      allowed: [...sets.keys()].join(', '),
      ...(suggestion !== undefined ? { suggestion: `device[${data.slice(7, -1).replace(setId, suggestion)}]` } : {}),
    });
    return undefined;
  }
  if (row !== undefined && set.type === 'map') {
    reporter.report('DT_WARN_SEM_REPRESENTATION_ROW_NOT_TABLE', path, {
      message:
        `The widget addresses row ${row} of '${setId}', but '${setId}' is a map set, which has no rows; ` +
        `write device[${setId}.${datapointId ?? ''}].`,
      found: data,
      suggestion: `device[${setId}.${datapointId ?? ''}]`,
    });
  }
  if (datapointId !== undefined) checkDatapoint(set, datapointId, path, reporter);
  return set;
}

function checkDatapoint(set: SetEntry, datapointId: string, path: DocumentPath, reporter: SemanticReporter): void {
  const datapoint = set.byId.get(datapointId);
  if (datapoint === undefined) {
    const suggestion = suggestName(datapointId, [...set.byId.keys()]);
    reporter.report('DT_WARN_SEM_REPRESENTATION_DATAPOINT_UNKNOWN', path, {
      message:
        `The widget shows the datapoint '${datapointId}', which the set '${set.id ?? ''}' does not have` +
        (suggestion !== undefined ? `; did you mean '${suggestion}'?` : '.'),
      found: datapointId,
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
    return;
  }
  if (datapoint.datapointType === '#TIMEPOINT') {
    reporter.report('DT_WARN_SEM_REPRESENTATION_TIMEPOINT', path, {
      message:
        `The widget shows '${datapointId}', a #TIMEPOINT datapoint: it is recorded as a time series, not kept as ` +
        'the current state of the set, so the widget likely stays empty; show a DATAPOINT instead.',
      found: datapointId,
    });
  }
}

function placeOf(common: Readonly<Record<string, unknown>>, index: number): Placed | undefined {
  const row = common['firstRow'];
  const column = common['firstColumn'];
  const width = common['widgetWidth'];
  const height = common['widgetHeight'];
  // Non-integers and values below 1 are schema errors; such a widget has no place to check.
  if (!isPlace(row) || !isPlace(column) || !isPlace(width) || !isPlace(height)) return undefined;
  return { index, row, column, width, height };
}

/** A whole number from 1 up. */
function isPlace(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1;
}

function checkGrid(box: Placed, path: DocumentPath, reporter: SemanticReporter): void {
  const lastColumn = box.column + box.width - 1;
  if (lastColumn <= GRID_COLUMNS) return;
  reporter.report('DT_WARN_SEM_WIDGET_OUTSIDE_GRID', [...path, 'widgetWidth'], {
    message:
      `The widget spans columns ${box.column} to ${lastColumn}, but the grid has ${GRID_COLUMNS} columns ` +
      `(firstColumn + widgetWidth - 1 must be at most ${GRID_COLUMNS}); ` +
      `use widgetWidth ${GRID_COLUMNS - box.column + 1}` +
      `${box.width <= GRID_COLUMNS ? ` or firstColumn ${GRID_COLUMNS - box.width + 1}` : ''}.`,
    found: box.width,
    allowed: `1 to ${GRID_COLUMNS - box.column + 1} for firstColumn ${box.column}`,
    suggestion: `widgetWidth: ${GRID_COLUMNS - box.column + 1}`,
  });
}

function checkOverlap(box: Placed, earlier: readonly Placed[], reporter: SemanticReporter): void {
  for (const other of earlier) {
    const overlaps =
      box.row < other.row + other.height &&
      other.row < box.row + box.height &&
      box.column < other.column + other.width &&
      other.column < box.column + box.width;
    if (!overlaps) continue;
    reporter.report('DT_WARN_SEM_WIDGET_OVERLAP', ['representation', box.index, 'commonConfig'], {
      message:
        `The widget covering ${cells(box)} overlaps the widget at ` +
        `${reporter.describePlace(['representation', other.index])}, ` +
        `which covers ${cells(other)}; move or resize one of them.`,
    });
    return;
  }
}

function cells(box: Placed): string {
  const span = (from: number, size: number) => (size === 1 ? `${from}` : `${from}–${from + size - 1}`);
  return (
    `row${box.height > 1 ? 's' : ''} ${span(box.row, box.height)}, column${box.width > 1 ? 's' : ''} ` +
    `${span(box.column, box.width)}`
  );
}
