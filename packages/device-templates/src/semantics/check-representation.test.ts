import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, widget, withCode } from './test-support/semantic-fixtures.js';
import { listAt } from '../test-support/fixture-paths.js';

function withWidget(item: unknown) {
  const t = validTemplate();
  listAt(t, 'representation').push(item);
  return semanticWarnings(t);
}

describe('checkRepresentation', () => {
  it('warns on data naming a set the template does not have, with the corrected data', () => {
    const [problem] = withCode(
      withWidget(widget('device[ifTabel.ifIndex]', 5, 1, 2, 1, 'metric', {})),
      'DT_WARN_SEM_REPRESENTATION_SET_UNKNOWN',
    );
    expect(problem).toMatchObject({ path: '/representation/5/data', suggestion: 'device[ifTable.ifIndex]' });
    expect(problem!.message).toContain("shows the datapointSet 'ifTabel'");
  });

  it('warns on data naming a datapoint its set does not have', () => {
    const [problem] = withCode(
      withWidget(widget('device[deviceInfo.sysname]', 5, 1, 2, 1, 'metric', {})),
      'DT_WARN_SEM_REPRESENTATION_DATAPOINT_UNKNOWN',
    );
    expect(problem).toMatchObject({ path: '/representation/5/data', found: 'sysname', suggestion: 'sysName' });
  });

  it('warns on a row index into a map set', () => {
    const [problem] = withCode(
      withWidget(widget('device[deviceInfo.2.sysName]', 5, 1, 2, 1, 'metric', {})),
      'DT_WARN_SEM_REPRESENTATION_ROW_NOT_TABLE',
    );
    expect(problem).toMatchObject({ path: '/representation/5/data', suggestion: 'device[deviceInfo.sysName]' });
    expect(problem!.message).toContain("'deviceInfo' is a map set, which has no rows");
  });

  it('warns on a format entry naming a datapoint the set does not have', () => {
    const item = widget('device[ifTable]', 5, 1, 8, 2, 'table', {
      format: [
        { order: 0, datapoint: 'ifIndex', alias: 'a' },
        { order: 1, datapoint: 'sysName', alias: 'b' },
      ],
    });
    const [problem] = withCode(withWidget(item), 'DT_WARN_SEM_REPRESENTATION_DATAPOINT_UNKNOWN');
    expect(problem!.path).toBe('/representation/5/specificConfig/format/1/datapoint');
    expect(problem!.message).toContain("the set 'ifTable' does not have");
  });

  it('warns on a widget showing a #TIMEPOINT datapoint', () => {
    const [problem] = withCode(
      withWidget(widget('device[deviceInfo.uptimeProbe]', 5, 1, 2, 1, 'metric', {})),
      'DT_WARN_SEM_REPRESENTATION_TIMEPOINT',
    );
    expect(problem!.message).toContain('a #TIMEPOINT datapoint');
  });

  it('warns on a widget past the 8th column and says which width fits', () => {
    const [problem] = withCode(
      withWidget(
        widget('device[deviceInfo]', 5, 6, 4, 1, 'map', { format: [{ order: 0, datapoint: 'sysName', alias: 'n' }] }),
      ),
      'DT_WARN_SEM_WIDGET_OUTSIDE_GRID',
    );
    expect(problem).toMatchObject({
      path: '/representation/5/commonConfig/widgetWidth',
      found: 4,
      suggestion: 'widgetWidth: 3',
    });
    expect(problem!.message).toContain('spans columns 6 to 9');
  });

  it('accepts a widget ending exactly at column 8', () => {
    const problems = withWidget(
      widget('device[deviceInfo]', 5, 5, 4, 1, 'map', { format: [{ order: 0, datapoint: 'sysName', alias: 'n' }] }),
    );
    expect(problems).toEqual([]);
  });

  it('warns on a widget covering cells of an earlier one and names it', () => {
    const [problem, ...rest] = withCode(
      withWidget(widget('device[deviceInfo.sysName]', 2, 4, 2, 1, 'metric', {})),
      'DT_WARN_SEM_WIDGET_OVERLAP',
    );
    expect(rest).toEqual([]);
    expect(problem!.path).toBe('/representation/5/commonConfig');
    expect(problem!.message).toContain(
      'The widget covering row 2, columns 4–5 overlaps the widget at /representation/0, which covers rows 1–2, ' +
        'columns 1–4',
    );
  });
});
