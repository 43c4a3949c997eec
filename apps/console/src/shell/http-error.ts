/** A reply with a status outside 2xx, with what the service said. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * `fetch` + JSON: resolves the parsed body (undefined for 204), rejects with `HttpError` carrying
 * the service's own message (`{error}` of the node manager, `detail`/`title` of problem+json).
 */
export async function requestJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  const body: unknown = text && isJson(response) ? JSON.parse(text) : text;
  if (!response.ok) throw new HttpError(response.status, messageOf(body, response), body);
  return body as T;
}

function isJson(response: Response): boolean {
  return /json/.test(response.headers.get('content-type') ?? '');
}

function messageOf(body: unknown, response: Response): string {
  if (typeof body === 'object' && body !== null) {
    for (const key of ['detail', 'error', 'title']) {
      const value: unknown = Reflect.get(body, key);
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return `${response.status} ${response.statusText}`.trim();
}
