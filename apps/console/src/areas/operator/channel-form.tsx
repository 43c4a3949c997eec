import { useRef, useState } from 'preact/hooks';
import { HttpError } from '../../shell/http-error.js';
import {
  CHANNEL_TYPES,
  channelBody,
  channelFields,
  channelProblems,
  emptyChannelDraft,
  refusedChannelField,
  type ChannelDraft,
  type ChannelField,
} from './notification-wire.js';

const LABELS: Readonly<Record<ChannelField, string>> = {
  name: 'Channel name (optional)',
  url: 'URL',
  secret: 'Signing secret',
  routingKey: 'Integration key',
  host: 'SMTP server',
  port: 'SMTP port',
  starttls: 'Require STARTTLS',
  user: 'SMTP user (optional)',
  password: 'SMTP password',
  from: 'From',
  to: 'To',
};
const HINTS: Partial<Record<ChannelField, string>> = {
  url: 'PagerDuty: optional, the Events API v2 address otherwise.',
  secret: 'At least 16 characters; kept sealed and never shown again.',
  routingKey: 'Kept sealed and never shown again.',
  password: 'Kept sealed and never shown again.',
  to: 'Up to 20 addresses, separated by commas.',
};
const SECRET: ReadonlySet<ChannelField> = new Set(['secret', 'routingKey', 'password']);

/**
 * The add-channel form (admin): the fields of the chosen type, each with its label, hint and own
 * error (`aria-invalid`, `aria-describedby`), checked before sending; a refusal of the API is put
 * at its field when it has one, in the page's alert otherwise. After a refused submit the focus
 * goes to the first field in error; after an added channel the form empties and the focus goes
 * back to its type.
 */
export function ChannelForm(props: {
  /** Sends the body; resolves when added, rejects with the refusal. */
  readonly onAdd: (body: Record<string, unknown>, label: string) => Promise<void>;
  readonly onProblem: (problem: string | undefined) => void;
}) {
  const [draft, setDraft] = useState<ChannelDraft>(emptyChannelDraft());
  const [problems, setProblems] = useState<Partial<Record<ChannelField, string>>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const fields = channelFields(draft.type);
  const focusField = (field: ChannelField) => form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  const set = (field: ChannelField, value: string | boolean) => setDraft({ ...draft, [field]: value });

  const submit = async () => {
    const found = channelProblems(draft);
    setProblems(found);
    const first = fields.find((field) => found[field] !== undefined);
    if (first !== undefined) {
      props.onProblem('The channel was not added: correct the fields marked below.');
      focusField(first);
      return;
    }
    setBusy(true);
    try {
      await props.onAdd(channelBody(draft), draft.name.trim() || `${draft.type} channel`);
      setDraft(emptyChannelDraft(draft.type));
      setProblems({});
      form.current?.querySelector<HTMLElement>('[name="type"]')?.focus();
    } catch (error) {
      const body: unknown = error instanceof HttpError ? error.body : undefined;
      const reason: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, 'error') : undefined;
      const field = typeof reason === 'string' ? refusedChannelField(reason, draft.type) : undefined;
      const message = error instanceof Error ? error.message : String(error);
      if (field !== undefined && fields.includes(field)) {
        setProblems({ [field]: message });
        props.onProblem('The channel was not added: correct the field marked below.');
        focusField(field);
      } else props.onProblem(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={form}
      class="stacked-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label for="channel-type">Type</label>
      <select
        id="channel-type"
        name="type"
        value={draft.type}
        onChange={(event) => {
          const type = CHANNEL_TYPES.find((t) => t.id === event.currentTarget.value)?.id;
          if (type !== undefined) setDraft({ ...emptyChannelDraft(type), name: draft.name });
          setProblems({});
        }}
      >
        {CHANNEL_TYPES.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </select>
      {fields.map((field) => {
        const id = `channel-${field}`;
        const problem = problems[field];
        const hint = field === 'url' && draft.type !== 'pagerduty' ? undefined : HINTS[field];
        const describedBy = [problem ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
        const common = {
          id,
          name: field,
          'aria-invalid': problem ? ('true' as const) : undefined,
          'aria-describedby': describedBy || undefined,
        };
        return (
          <div key={field} class={field === 'starttls' ? 'field field-check' : 'field'}>
            {field === 'starttls' ? (
              <>
                <input
                  {...common}
                  type="checkbox"
                  checked={draft.starttls}
                  onChange={(event) => set('starttls', event.currentTarget.checked)}
                />
                <label for={id}>{LABELS[field]}</label>
              </>
            ) : (
              <>
                <label for={id}>{LABELS[field]}</label>
                {SECRET.has(field) ? (
                  <input
                    {...common}
                    type="password"
                    autoComplete="new-password"
                    value={String(draft[field])}
                    onInput={(event) => set(field, event.currentTarget.value)}
                  />
                ) : (
                  <input
                    {...common}
                    type="text"
                    inputMode={field === 'port' ? 'numeric' : undefined}
                    autoComplete="off"
                    value={String(draft[field])}
                    onInput={(event) => set(field, event.currentTarget.value)}
                  />
                )}
              </>
            )}
            {hint ? (
              <p id={`${id}-hint`} class="hint">
                {hint}
              </p>
            ) : null}
            {problem ? (
              <p id={`${id}-error`} class="field-error">
                {problem}
              </p>
            ) : null}
          </div>
        );
      })}
      <button type="submit" class="primary" disabled={busy}>
        Add channel
      </button>
    </form>
  );
}
