/**
 * The token of template and device writes and of device reads: asked for when a write or a
 * device read answers 401 or 403, kept in the area's memory only (never in storage or a cookie: a
 * reload forgets it), sent as `Authorization: Bearer` by the requests after it. A write token
 * also reads, so one token does for both.
 */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { TemplatesApiError } from './templates-api.js';

/** The token the area keeps, and how a page sets it. */
export interface WriteAccess {
  readonly token: string | undefined;
  readonly setToken: (token: string) => void;
}

/** A write to run again with the token once it is given. */
type Retry = (token: string) => unknown;

/** What `useTokenPrompt` gives a page. */
export interface TokenPrompt {
  /**
   * When `error` is the service refusing a write for want of the right token (401, 403), shows the
   * token field, which runs `retry` with the token given; true then, false for any other error.
   */
  readonly asks: (error: unknown, retry: Retry) => boolean;
  /** The token field to render where the write was asked for; null while none is needed. */
  readonly field: JSX.Element | null;
}

/**
 * Why the token field shows: no token was sent yet (401), the token sent was not accepted (401
 * after one was given: mistyped, revoked, or from another service), or it is good but may only
 * read (403).
 */
export type TokenNeed = 'missing' | 'rejected' | 'read-only';

/** The sentence the token field says for each need (decision 0036). */
export const TOKEN_NEED_TEXT: Readonly<Record<TokenNeed, string>> = {
  missing:
    'This service needs a token to read devices and a write token to change templates and devices: the ' +
    'one npm start printed (it does both), or one made with triad templates tokens add.',
  rejected:
    'The service did not accept that token: it is mistyped, revoked, or belongs to another service. ' +
    'Paste the token again, the one npm start printed or one made with triad templates tokens add.',
  'read-only':
    'That token is good but may only read. Give a write token (triad templates tokens add <name> --scope write).',
};

/** The token field of one page. */
export function useTokenPrompt(access: WriteAccess): TokenPrompt {
  const [pending, setPending] = useState<{ readonly retry: Retry; readonly need: TokenNeed } | undefined>();
  // Whether this page sent a token of the person's: a 401 after that is a rejected token, not a missing one.
  const given = useRef(access.token !== undefined);
  const asks = (error: unknown, retry: Retry): boolean => {
    if (!(error instanceof TemplatesApiError) || (error.status !== 401 && error.status !== 403)) return false;
    const need: TokenNeed =
      error.status === 403 ? 'read-only' : given.current || access.token !== undefined ? 'rejected' : 'missing';
    setPending({ retry, need });
    return true;
  };
  const field = pending ? (
    <TokenField
      need={pending.need}
      onToken={(token) => {
        given.current = true;
        access.setToken(token);
        setPending(undefined);
        pending.retry(token);
      }}
      onCancel={() => setPending(undefined)}
    />
  ) : null;
  return { asks, field };
}

function TokenField(props: {
  readonly need: TokenNeed;
  readonly onToken: (token: string) => void;
  readonly onCancel: () => void;
}) {
  const [token, setToken] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => input.current?.focus(), [props.need]);
  return (
    <form
      class="tpl-token"
      aria-labelledby="tpl-token-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (token.trim() !== '') props.onToken(token.trim());
      }}
    >
      <h2 id="tpl-token-title">Token needed</h2>
      <p id="tpl-token-help">{TOKEN_NEED_TEXT[props.need]} The console keeps it in memory only: a reload forgets it.</p>
      <label>
        Write token
        <input
          ref={input}
          type="password"
          autoComplete="off"
          required
          aria-describedby="tpl-token-help"
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
      </label>
      <div class="row-actions">
        <button type="submit" class="primary">
          Use token
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
