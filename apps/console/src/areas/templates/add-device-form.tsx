/**
 * "Add device": a name, a template version from the registry, the variables as NAME=VALUE rows
 * (prefilled with the `/{NAME}/` placeholders the chosen version uses) and the driver settings as
 * JSON. The service's 422 problems show at the field their JSON Pointer names, and in a summary.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage } from '../../shell/error-alert.js';
import { createDevice, readTemplateDocument } from './devices-api.js';
import {
  parseDrivers,
  problemFieldLabel,
  problemPlace,
  templateOriginTypes,
  templatePlaceholders,
  variableRowsFor,
  variablesOf,
  type Device,
  type DeviceProblem,
  type VariableRow,
} from './device-wire.js';
import { listTemplates, type TemplateSummary } from './templates-api.js';
import { useTokenPrompt, type WriteAccess } from './write-token.js';

export interface AddDeviceFormProps {
  readonly access: WriteAccess;
  readonly onAdded: (device: Device) => void;
}

/** Where the problems of one submission belong. */
interface Problems {
  readonly name: readonly string[];
  readonly template: readonly string[];
  readonly drivers: readonly string[];
  readonly variables: Readonly<Record<string, readonly string[]>>;
  readonly all: readonly DeviceProblem[];
}

const NO_PROBLEMS: Problems = { name: [], template: [], drivers: [], variables: {}, all: [] };

function sortProblems(problems: readonly DeviceProblem[], rows: readonly VariableRow[]): Problems {
  const out = { name: [] as string[], template: [] as string[], drivers: [] as string[] };
  const variables: Record<string, string[]> = {};
  const names = new Set(rows.map((row) => row.name.trim()));
  for (const problem of problems) {
    const place = problemPlace(problem.path);
    if (place.field === 'variable' && names.has(place.name)) (variables[place.name] ??= []).push(problem.message);
    else if (place.field === 'name' || place.field === 'template' || place.field === 'drivers')
      out[place.field].push(problem.message);
  }
  return { ...out, variables, all: problems };
}

/** `id` of a field's problem text, for `aria-describedby`. */
const problemId = (field: string) => `tpl-add-problem-${field.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function FieldProblems(props: { readonly id: string; readonly messages: readonly string[] }) {
  if (props.messages.length === 0) return null;
  return (
    <p id={props.id} class="error tpl-field-problem">
      {props.messages.join(' ')}
    </p>
  );
}

function invalid(messages: readonly string[], id: string) {
  return messages.length > 0 ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}

/** The form. */
export function AddDeviceForm({ access, onAdded }: AddDeviceFormProps) {
  const [versions, setVersions] = useState<readonly TemplateSummary[] | undefined>();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState('');
  const [rows, setRows] = useState<readonly VariableRow[]>([]);
  const [drivers, setDrivers] = useState('{}');
  const [driversTouched, setDriversTouched] = useState(false);
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const tokens = useTokenPrompt(access);

  useEffect(() => {
    listTemplates({ limit: 200 }).then(
      (page) => {
        const sorted = [...page.items].sort((a, b) => a.templateId.localeCompare(b.templateId));
        setVersions(sorted);
        const first = sorted[0];
        if (first) setChosen(JSON.stringify([first.templateId, first.templateVersion]));
      },
      (error: unknown) => setMessage(`The registry could not be read: ${errorMessage(error)}`),
    );
  }, []);

  // Prefill the variables (and the driver settings' skeleton) from the chosen version's document.
  useEffect(() => {
    if (!chosen) return;
    const [templateId = '', templateVersion = ''] = JSON.parse(chosen) as string[];
    let live = true;
    readTemplateDocument(templateId, templateVersion).then(
      (document) => {
        if (!live) return;
        setRows((current) => variableRowsFor(templatePlaceholders(document), current));
        if (!driversTouched) {
          const skeleton = Object.fromEntries(templateOriginTypes(document).map((type) => [type, {}]));
          setDrivers(JSON.stringify(skeleton, null, 2));
        }
      },
      (error: unknown) => live && setMessage(`The template could not be read: ${errorMessage(error)}`),
    );
    return () => {
      live = false;
    };
    // Only a new choice prefills; edits to the driver settings stay.
  }, [chosen]);

  const focusFirstProblem = () =>
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const submit = async (token: string | undefined) => {
    const [templateId = '', templateVersion = ''] = chosen ? (JSON.parse(chosen) as string[]) : [];
    const parsed = parseDrivers(drivers);
    if ('problem' in parsed) {
      setProblems(sortProblems([parsed.problem], rows));
      setMessage('');
      focusFirstProblem();
      return;
    }
    setBusy(true);
    try {
      const outcome = await createDevice(
        { name: name.trim(), templateId, templateVersion, variables: variablesOf(rows), drivers: parsed.drivers },
        token,
      );
      if (outcome.kind === 'invalid') {
        setProblems(sortProblems(outcome.problems, rows));
        setMessage(`Not added: ${outcome.detail}`);
        focusFirstProblem();
        return;
      }
      setProblems(NO_PROBLEMS);
      setMessage('');
      setName('');
      setRows((current) => current.map((row) => ({ ...row, value: '' })));
      onAdded(outcome.device);
    } catch (error) {
      if (tokens.asks(error, (given) => submit(given))) return;
      setMessage(`Not added: ${errorMessage(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const setRow = (index: number, change: Partial<VariableRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <section class="tpl-add-device" aria-labelledby="tpl-add-device-title">
      <h2 id="tpl-add-device-title">Add device</h2>
      <form
        ref={form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void submit(access.token);
        }}
      >
        <label>
          Name
          <input
            value={name}
            maxLength={200}
            autoComplete="off"
            onInput={(event) => setName(event.currentTarget.value)}
            {...invalid(problems.name, problemId('name'))}
          />
        </label>
        <FieldProblems id={problemId('name')} messages={problems.name} />
        <label>
          Template version
          <select
            value={chosen}
            onChange={(event) => setChosen(event.currentTarget.value)}
            {...invalid(problems.template, problemId('template'))}
          >
            {versions === undefined ? <option value="">Loading…</option> : null}
            {versions?.map((v) => {
              const value = JSON.stringify([v.templateId, v.templateVersion]);
              return (
                <option key={value} value={value}>
                  {v.templateId}@{v.templateVersion}
                </option>
              );
            })}
          </select>
        </label>
        <FieldProblems id={problemId('template')} messages={problems.template} />
        <fieldset class="tpl-variables">
          <legend>Variables (NAME=VALUE)</legend>
          {rows.length === 0 ? <p class="tpl-muted">The template uses no placeholders.</p> : null}
          {rows.map((row, index) => {
            const messages = problems.variables[row.name.trim()] ?? [];
            const id = problemId(`var-${index}`);
            return (
              <div class="tpl-variable" key={index}>
                <input
                  class="tpl-variable-name"
                  aria-label={`Name of variable ${index + 1}`}
                  value={row.name}
                  autoComplete="off"
                  spellcheck={false}
                  onInput={(event) => setRow(index, { name: event.currentTarget.value })}
                />
                <span aria-hidden="true">=</span>
                <input
                  class="tpl-variable-value"
                  aria-label={`Value of ${row.name.trim() || `variable ${index + 1}`}`}
                  value={row.value}
                  autoComplete="off"
                  spellcheck={false}
                  onInput={(event) => setRow(index, { value: event.currentTarget.value })}
                  {...invalid(messages, id)}
                />
                <FieldProblems id={id} messages={messages} />
              </div>
            );
          })}
          <button type="button" onClick={() => setRows((r) => [...r, { name: '', value: '' }])}>
            Add a variable
          </button>
        </fieldset>
        <label>
          Driver settings (JSON)
          <textarea
            rows={5}
            spellcheck={false}
            value={drivers}
            onInput={(event) => {
              setDriversTouched(true);
              setDrivers(event.currentTarget.value);
            }}
            {...invalid(problems.drivers, problemId('drivers'))}
          />
        </label>
        <FieldProblems id={problemId('drivers')} messages={problems.drivers} />
        <button type="submit" class="primary" disabled={!chosen}>
          Add device
        </button>
      </form>
      {tokens.field}
      <div role="alert" class="error">
        {message ? <p>{message}</p> : null}
        {problems.all.length > 0 ? (
          <ul aria-label="Problems">
            {problems.all.map((problem, i) => (
              <li key={i}>
                {problemFieldLabel(problem.path)}: {problem.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
