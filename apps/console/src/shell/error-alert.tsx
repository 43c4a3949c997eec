/**
 * An alert (`role="alert"`, read out at once) with the message of a failed action; nothing when
 * `message` is undefined or empty.
 */
export function ErrorAlert(props: { readonly message: string | undefined }) {
  if (!props.message) return null;
  return (
    <p role="alert" class="error">
      {props.message}
    </p>
  );
}

/** The message to show for whatever a promise rejected with. */
export function errorMessage(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
