import { useEffect, useState } from 'preact/hooks';
import { Link } from '../../shell/link.js';
import { bookmarkProblem, isConsolePath, type Bookmark } from './bookmark.js';
import type { OperatorClient } from './operator-client.js';
import { errorMessage } from '../../shell/error-alert.js';

/**
 * The signed-in user's bookmarks (saved views) on the Admin page: the list (`GET /api/bookmark`),
 * a form that saves one (`POST`, replacing the url of an existing title) and Delete per entry
 * (`DELETE` with the title in the body). Console paths open as links; other urls show as text, so
 * a stored `javascript:` url is never followed.
 */
export function BookmarksSection(props: {
  readonly client: OperatorClient;
  readonly onError: (message: string) => void;
  readonly onDone: (message: string) => void;
}) {
  const { client, onError } = props;
  const [bookmarks, setBookmarks] = useState<readonly Bookmark[] | undefined>();
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('');
  const fail = (failure: unknown) => onError(errorMessage(failure));
  useEffect(() => {
    client
      .get<{ bookmarks: Bookmark[] }>('/api/bookmark')
      .then((reply) => setBookmarks(reply.bookmarks))
      .catch((failure: unknown) => onError(errorMessage(failure)));
  }, [client, onError]);
  const remove = (bookmark: Bookmark) =>
    client
      .delete<{ bookmarks: Bookmark[] }>('/api/bookmark', { bookmarks: [{ title: bookmark.title }] })
      .then((reply) => {
        setBookmarks(reply.bookmarks);
        props.onDone(`Bookmark ${bookmark.title} deleted.`);
      })
      .catch(fail);
  return (
    <section aria-labelledby="bookmarks-heading">
      <h2 id="bookmarks-heading">Bookmarks</h2>
      {bookmarks === undefined ? (
        <p>Loading bookmarks…</p>
      ) : bookmarks.length === 0 ? (
        <p>No bookmarks.</p>
      ) : (
        <ul>
          {bookmarks.map((bookmark) => (
            <li key={bookmark.title}>
              {isConsolePath(bookmark.url) ? <Link href={bookmark.url}>{bookmark.title}</Link> : bookmark.title} (
              {bookmark.url}){' '}
              <button
                type="button"
                aria-label={`Delete bookmark ${bookmark.title}`}
                onClick={() => void remove(bookmark)}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const problem = bookmarkProblem(title, url);
          if (problem !== undefined) return onError(problem);
          const saved = { title: title.trim(), url: url.trim() };
          client
            .post<{ bookmarks: Bookmark[] }>('/api/bookmark', { bookmarks: [saved] })
            .then((reply) => {
              setBookmarks(reply.bookmarks);
              setTitle('');
              setUrl('');
              props.onDone(`Bookmark ${saved.title} saved.`);
            })
            .catch(fail);
        }}
      >
        <label for="bookmark-title">Bookmark title</label>
        <input id="bookmark-title" maxLength={255} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <label for="bookmark-url">Bookmark URL</label>
        <input id="bookmark-url" maxLength={2048} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <button type="submit" class="primary">
          Save bookmark
        </button>
      </form>
    </section>
  );
}
