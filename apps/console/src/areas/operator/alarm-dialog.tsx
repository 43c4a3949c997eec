import { useEffect, useRef, useState } from 'preact/hooks';
import type { AlarmWire } from './node-wire.js';

/** What the alarm dialog asks: a comment for the alarms, or whether to clear them. */
export type AlarmDialogKind = 'comment' | 'clear';

/** `disk_almost_full on a@h`, or `3 alarms`. */
export function alarmsName(alarms: readonly AlarmWire[]): string {
  const [only] = alarms;
  return alarms.length === 1 && only ? `${only.alarmId} on ${only.src.nodeName}` : `${alarms.length} alarms`;
}

/**
 * The console's own modal dialog (a native `<dialog>` opened with `showModal`, so focus stays in
 * it and Escape cancels) for the two alarm actions that need a second word: "Comment" asks for the
 * text (required, kept until sent), "Clear" asks to confirm, as a cleared alarm leaves the list.
 * `onDone` gets the comment (or '' for clear); `onCancel` runs on Cancel, Escape or closing.
 */
export function AlarmDialog(props: {
  readonly kind: AlarmDialogKind;
  readonly alarms: readonly AlarmWire[];
  readonly onDone: (comment: string) => void;
  readonly onCancel: () => void;
}) {
  const { kind, alarms, onDone, onCancel } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const name = alarmsName(alarms);
  const submit = (event: Event) => {
    event.preventDefault();
    if (kind === 'comment' && text.trim() === '') return;
    onDone(kind === 'comment' ? text.trim() : '');
  };
  return (
    <dialog ref={dialog} class="alarm-dialog" aria-labelledby="alarm-dialog-title" onCancel={onCancel}>
      <form method="dialog" onSubmit={submit}>
        <h2 id="alarm-dialog-title">{kind === 'comment' ? `Comment on ${name}` : `Clear ${name}?`}</h2>
        {kind === 'comment' ? (
          <label>
            Comment
            <textarea required rows={4} value={text} autoFocus onInput={(e) => setText(e.currentTarget.value)} />
          </label>
        ) : (
          <p>
            A cleared alarm leaves the list for everyone. If its cause is still there, the node raises it again as new.
          </p>
        )}
        <div class="dialog-buttons">
          <button type="submit" class="primary">
            {kind === 'comment' ? 'Add comment' : alarms.length === 1 ? 'Clear alarm' : `Clear ${alarms.length} alarms`}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
