/** The read client a demo run hands the sign-in form. */
export interface DemoClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * The content API's `GET /oauth/demo-client`: the client only from a local demo run with a
 * generated client (docs/console.md), 204 otherwise. Undefined whenever there is none or it
 * cannot be read: the form is then simply empty.
 */
export async function fetchDemoClient(): Promise<DemoClient | undefined> {
  try {
    const reply = await fetch('/oauth/demo-client', { headers: { accept: 'application/json' } });
    if (reply.status !== 200) return undefined;
    const body = (await reply.json()) as Partial<DemoClient>;
    return typeof body.clientId === 'string' && typeof body.clientSecret === 'string'
      ? { clientId: body.clientId, clientSecret: body.clientSecret }
      : undefined;
  } catch {
    return undefined;
  }
}
