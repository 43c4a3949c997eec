import { ALARM_PAGE_SIZES, type AlarmQuery } from './alarm-query.js';
import { SEVERITIES } from './alarm-severity.js';

/**
 * The alarm list's filters as native selects: "Source" (any, or one of `sources`), "Tag" (all,
 * or one of `tags`), "Severity" (any, or one of the X.733 severities and those on the page) and
 * "Rows per page". Every change goes to `onChange` as a whole query.
 */
export function AlarmFilters(props: {
  readonly query: AlarmQuery;
  readonly sources: readonly string[];
  readonly tags: readonly string[];
  /** Severities of the alarms on the page, offered beside the X.733 ones. */
  readonly severities: readonly string[];
  readonly onChange: (query: AlarmQuery) => void;
}) {
  const { query, onChange } = props;
  return (
    <form class="inline-form" aria-label="Alarm filters" onSubmit={(e) => e.preventDefault()}>
      <FilterSelect
        label="Source"
        anyLabel="Any source"
        value={query.source}
        options={props.sources}
        onChange={(source) => onChange({ ...query, source })}
      />
      <FilterSelect
        label="Tag"
        anyLabel="All tags"
        value={query.tag}
        options={props.tags}
        onChange={(tag) => onChange({ ...query, tag })}
      />
      <FilterSelect
        label="Severity"
        anyLabel="Any severity"
        value={query.severity}
        options={[...SEVERITIES, ...props.severities.filter((s) => !SEVERITIES.includes(s))]}
        onChange={(severity) => onChange({ ...query, severity })}
      />
      <label>
        Rows per page
        <select
          value={String(query.limit)}
          onChange={(e) => onChange({ ...query, limit: Number(e.currentTarget.value) })}
        >
          {ALARM_PAGE_SIZES.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

/** A select of `options` plus a first "any" option (value undefined). */
function FilterSelect(props: {
  readonly label: string;
  readonly anyLabel: string;
  readonly value: string | undefined;
  readonly options: readonly string[];
  readonly onChange: (value: string | undefined) => void;
}) {
  const { value, onChange } = props;
  // A value the list no longer holds (its last alarm cleared) stays selectable.
  const options = value === undefined || props.options.includes(value) ? props.options : [...props.options, value];
  return (
    <label>
      {props.label}
      <select value={value ?? ''} onChange={(e) => onChange(e.currentTarget.value || undefined)}>
        <option value="">{props.anyLabel}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
