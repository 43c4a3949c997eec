/**
 * Server-Sent Events over `fetch`, so that the request can carry `Authorization: Bearer` (an
 * `EventSource` cannot, and device streams need a token by default). Like `EventSource` it
 * reconnects after a dropped connection or a server error; unlike it, it gives up for good on an
 * answer that will not change by waiting (401, 403, 404), and tells which.
 */

/** What the stream reports. */
export interface EventStreamHandlers {
  /** The stream is open (again). */
  readonly open: () => void;
  /** One event: its `event:` type (`message` when none) and its `data:`. */
  readonly event: (type: string, data: string) => void;
  /** The stream dropped and will reconnect (`status` undefined), or gave up with that HTTP status. */
  readonly error: (status: number | undefined) => void;
}

/** Milliseconds before reconnecting. */
const RETRY_MS = 3000;

/** Opens `url` with `headers`; call the returned function to close it for good. */
export function openEventStream(
  url: string,
  headers: Readonly<Record<string, string>>,
  handlers: EventStreamHandlers,
): () => void {
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    try {
      const response = await fetch(url, {
        headers: { accept: 'text/event-stream', ...headers },
        signal: stop.signal,
        cache: 'no-store',
      });
      if (response.status === 401 || response.status === 403 || response.status === 404) {
        handlers.error(response.status);
        return;
      }
      if (!response.ok || response.body === null) throw new Error(`status ${response.status}`);
      handlers.open();
      await read(response.body, handlers);
    } catch {
      // A network error, a server error or the end of the stream: reconnect, unless closed.
    }
    if (stop.signal.aborted) return;
    handlers.error(undefined);
    timer = setTimeout(() => void connect(), RETRY_MS);
  };
  void connect();
  return () => {
    stop.abort();
    clearTimeout(timer);
  };
}

/** Reads events until the body ends: blocks of `field: value` lines ended by an empty line. */
async function read(body: ReadableStream<Uint8Array>, handlers: EventStreamHandlers): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') type = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length > 0) handlers.event(type, data.join('\n'));
    }
  }
}
