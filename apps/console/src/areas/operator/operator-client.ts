import { HttpError, requestJson } from '../../shell/http-error.js';
import { operatorMessage } from './operator-messages.js';

/** Credentials, kept for the browser session only (`sessionStorage`, never `localStorage`): gone on sign-out. */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** `requestJson`, with a refusal's `{error: reason}` turned into a sentence (`operatorMessage`). */
async function request<T>(path: string, init: RequestInit): Promise<T> {
  try {
    return await requestJson<T>(path, init);
  } catch (error) {
    const sentence = error instanceof HttpError ? operatorMessage(error.body) : undefined;
    throw sentence === undefined || !(error instanceof HttpError)
      ? error
      : new HttpError(error.status, sentence, error.body);
  }
}

/**
 * Calls the node manager's `/api` (same origin) with HTTP Basic when signed in. Every call sends
 * `X-Requested-With: XMLHttpRequest`, so a 401 comes without `WWW-Authenticate` and the browser
 * shows no password dialog of its own over the console's form. A refusal rejects with HttpError
 * whose message is a sentence (`operatorMessage`); its body keeps the API's code.
 */
export class OperatorClient {
  constructor(readonly credentials: Credentials | undefined) {}

  get<T>(path: string): Promise<T> {
    return request<T>(path, { headers: this.#headers() });
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return request<T>(path, {
      method: 'POST',
      headers: { ...this.#headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return request<T>(path, {
      method: 'PUT',
      headers: { ...this.#headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  /** DELETE, with a JSON body when one is given (the bookmark API takes the titles there). */
  delete<T = unknown>(path: string, body?: unknown): Promise<T> {
    if (body === undefined) return request<T>(path, { method: 'DELETE', headers: this.#headers() });
    return request<T>(path, {
      method: 'DELETE',
      headers: { ...this.#headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' };
    if (this.credentials) {
      const { username, password } = this.credentials;
      headers.authorization = `Basic ${btoa(`${username}:${password}`)}`;
    }
    return headers;
  }
}
