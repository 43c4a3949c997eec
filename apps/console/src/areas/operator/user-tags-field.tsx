import { useEffect, useState } from 'preact/hooks';
import type { OperatorClient } from './operator-client.js';
import { formatTags, parseTags, type UserTags } from './user-tags.js';
import { errorMessage } from '../../shell/error-alert.js';

/**
 * One user's tags on the Admin page: a text field (`all`, or tags separated by commas) loaded
 * from `GET /api/tags/user/<name>` and saved with `POST /api/tags/user`. Problems and API errors go
 * to `onError`, success to `onDone`.
 */
export function UserTagsField(props: {
  readonly client: OperatorClient;
  readonly username: string;
  readonly onError: (message: string) => void;
  readonly onDone: (message: string) => void;
}) {
  const { client, username, onError } = props;
  const [text, setText] = useState<string | undefined>();
  useEffect(() => {
    client
      .get<UserTags>(`/api/tags/user/${encodeURIComponent(username)}`)
      .then((tags) => setText(formatTags(tags)))
      .catch((failure: unknown) => onError(errorMessage(failure)));
  }, [client, username, onError]);
  const id = `tags-of-${encodeURIComponent(username)}`;
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = parseTags(text ?? '');
        if ('problem' in parsed) return props.onError(parsed.problem);
        client
          .post('/api/tags/user', { UserName: username, tags: parsed.tags })
          .then(() => {
            setText(formatTags(parsed.tags));
            props.onDone(`Tags of ${username} saved.`);
          })
          .catch((failure: unknown) => onError(errorMessage(failure)));
      }}
    >
      <label for={id} class="visually-hidden">
        Tags of {username}
      </label>
      <input
        id={id}
        value={text ?? ''}
        disabled={text === undefined}
        onInput={(event) => setText(event.currentTarget.value)}
      />{' '}
      <button type="submit" aria-label={`Save tags of ${username}`}>
        Save
      </button>
    </form>
  );
}
