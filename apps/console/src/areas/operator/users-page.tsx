import { useCallback, useEffect, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { errorMessage } from '../../shell/error-alert.js';
import { usePageTitle } from '../../shell/page-title.js';
import type { OperatorClient } from './operator-client.js';
import { BookmarksSection } from './bookmarks-section.js';
import { UserTagsField } from './user-tags-field.js';
import {
  isRole,
  newUserProblem,
  RIGHTS,
  ROLES,
  sortUsers,
  toggledRights,
  type AdminUser,
  type Right,
  type Role,
} from './user-admin.js';

/**
 * The Admin page (admin role only): every user with their role, a form to add one (the API adds
 * with role `user`; another role is set right after), a role picker and the tags per user, and
 * Delete with a confirm step. API errors show in an alert region; successes in a status region.
 */
export function UsersPage(props: { readonly client: OperatorClient; readonly username: string }) {
  usePageTitle('Admin');
  const { client } = props;
  const [users, setUsers] = useState<readonly AdminUser[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<string | undefined>();
  const load = useCallback(async () => {
    const names = await client.get<string[]>('/api/users/list_users');
    const listed = await Promise.all(
      names.map(async (username): Promise<AdminUser> => {
        const [role, rights] = await Promise.all([
          client.get<string>(`/api/users/role/${encodeURIComponent(username)}`),
          client.get<string[]>(`/api/users/rights/${encodeURIComponent(username)}`),
        ]);
        return { username, role: isRole(role) ? role : undefined, rights };
      }),
    );
    setUsers(sortUsers(listed));
  }, [client]);
  /** Runs `action`, then reads the users again; resolves true when it succeeded, false (alert shown) otherwise. */
  const run = useCallback(
    (action: () => Promise<unknown>, done: string): Promise<boolean> => {
      setError(undefined);
      return action()
        .then(load)
        .then(() => {
          setStatus(done);
          return true;
        })
        .catch((failure: unknown) => {
          setStatus(undefined);
          setError(errorMessage(failure));
          return false;
        });
    },
    [load],
  );
  useEffect(() => {
    load().catch((failure: unknown) => setError(errorMessage(failure)));
  }, [load]);

  const done = (message: string) => {
    setError(undefined);
    setStatus(message);
  };
  const changeRole = (username: string, role: Role) =>
    void run(() => client.post('/api/users/change_role', { username, role }), `${username} is now ${role}.`);
  const changeRight = (user: AdminUser, right: Right, on: boolean) => {
    const rights = toggledRights(user.rights, right, on);
    if (rights === undefined) {
      setStatus(undefined);
      setError(`${user.username} needs at least one right.`);
      return;
    }
    void run(
      () => client.post('/api/users/change_rights', { username: user.username, rights }),
      `${user.username} now has ${rights.join(', ')}.`,
    );
  };
  const remove = (username: string) => {
    setConfirming(undefined);
    void run(() => client.delete(`/api/users/delete_user/${encodeURIComponent(username)}`), `${username} deleted.`);
  };

  return (
    <>
      <h1>Admin</h1>
      <div role="alert" class="error">
        {error}
      </div>
      <p role="status">{status}</p>
      <section aria-labelledby="users-heading">
        <h2 id="users-heading">Users</h2>
        {users === undefined ? (
          <p>Loading users…</p>
        ) : (
          <DataTable
            caption="Users, their roles and rights"
            captionHidden
            rows={users}
            rowKey={(user) => user.username}
            columns={[
              {
                id: 'username',
                header: 'Username',
                rowHeader: true,
                sortValue: (user) => user.username,
                cell: (user) => user.username,
              },
              {
                id: 'role',
                header: 'Role',
                sortValue: (user) => (user.role === undefined ? undefined : ROLES.indexOf(user.role)),
                cell: (user) => (
                  <select
                    aria-label={`Role of ${user.username}`}
                    value={user.role ?? ''}
                    disabled={user.username === props.username}
                    onChange={(event) => {
                      const role = event.currentTarget.value;
                      if (isRole(role)) changeRole(user.username, role);
                    }}
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                ),
              },
              {
                id: 'rights',
                header: 'Rights',
                cell: (user) => (
                  <fieldset class="rights">
                    <legend class="visually-hidden">Rights of {user.username}</legend>
                    {RIGHTS.map((right) => (
                      <label key={right}>
                        <input
                          type="checkbox"
                          checked={user.rights.includes(right)}
                          disabled={user.username === props.username}
                          onChange={(event) => changeRight(user, right, event.currentTarget.checked)}
                        />{' '}
                        {right}
                      </label>
                    ))}
                  </fieldset>
                ),
              },
              {
                id: 'tags',
                header: 'Tags',
                cell: (user) => (
                  <UserTagsField client={client} username={user.username} onError={setError} onDone={done} />
                ),
              },
              {
                id: 'actions',
                header: 'Actions',
                cell: (user) =>
                  user.username === props.username ? (
                    'You'
                  ) : confirming === user.username ? (
                    <>
                      <button type="button" class="primary" onClick={() => remove(user.username)}>
                        Confirm delete {user.username}
                      </button>{' '}
                      <button type="button" onClick={() => setConfirming(undefined)}>
                        Cancel
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      aria-label={`Delete ${user.username}`}
                      onClick={() => setConfirming(user.username)}
                    >
                      Delete
                    </button>
                  ),
              },
            ]}
          />
        )}
      </section>
      <AddUserForm
        onAdd={(username, password, role) =>
          run(async () => {
            await client.post('/api/users/add_user', { username, password });
            if (role !== 'user') await client.post('/api/users/change_role', { username, role });
          }, `${username} added as ${role}.`)
        }
        onProblem={setError}
      />
      <BookmarksSection client={client} onError={setError} onDone={done} />
    </>
  );
}

/** The add-user form: it empties only once the user is added, so a refused attempt keeps what was typed. */
function AddUserForm(props: {
  /** Resolves true when the user was added. */
  readonly onAdd: (username: string, password: string, role: Role) => Promise<boolean>;
  readonly onProblem: (problem: string) => void;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<string>('user');
  return (
    <section aria-labelledby="add-user-heading">
      <h2 id="add-user-heading">Add a user</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const problem = newUserProblem(username, password, role);
          if (problem !== undefined || !isRole(role)) return props.onProblem(problem ?? `Unknown role ${role}.`);
          void props.onAdd(username.trim(), password, role).then((added) => {
            if (!added) return;
            setUsername('');
            setPassword('');
          });
        }}
      >
        <label for="new-user-name">New username</label>
        <input
          id="new-user-name"
          name="username"
          autoComplete="off"
          maxLength={64}
          value={username}
          onInput={(event) => setUsername(event.currentTarget.value)}
        />
        <label for="new-user-password">New password</label>
        <input
          id="new-user-password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          maxLength={128}
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
        />
        <label for="new-user-role">Role</label>
        <select id="new-user-role" name="role" value={role} onChange={(event) => setRole(event.currentTarget.value)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <button type="submit" class="primary">
          Add user
        </button>
      </form>
    </section>
  );
}
